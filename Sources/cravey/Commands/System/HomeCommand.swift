import ArgumentParser
import TerminalKit

extension Cravey {
    /// `cravey home`: the daily hub (what bare `cravey` opens on a terminal).
    struct HomeCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "home",
            abstract:
                "The daily hub: log a craving or a use, ride a craving out, play your top three messages, record, your recordings, progress, check-in, settings — one key each.",
            discussion: "What 'cravey' alone opens on a terminal. The first time, it welcomes you first.")

        @OptionGroup var library: LibraryOptions
        @OptionGroup var devices: ScreenDevices

        func run() throws {
            guard let screen = FullScreen() else {
                throw CraveyFailure(
                    message: "the home screen needs a terminal; every action is also a command (cravey --help)")
            }
            try Home(session: try library.session(mic: devices.mic, speaker: devices.speaker), screen: screen).run()
        }
    }
}
