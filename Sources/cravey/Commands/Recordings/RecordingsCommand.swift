import ArgumentParser
import CraveyLibrary
import TerminalKit

extension Cravey {
    /// `cravey recordings`: the library of messages as a screen (what `m` on home opens).
    struct RecordingsCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "recordings",
            abstract: "Your recordings, newest first: play, edit, delete or record new — one key each.",
            discussion:
                "On a terminal a screen (Enter plays, e edits, d deletes, n records new, q leaves); without one, or with --json, the list as 'cravey list' prints it."
        )

        @OptionGroup var library: LibraryOptions
        @OptionGroup var output: OutputOptions
        @OptionGroup var devices: ScreenDevices

        func run() throws {
            let lib = try library.open()
            guard !output.json, let screen = FullScreen() else {
                return try List.show(lib, json: output.json)
            }
            try RecordingsScreen(
                session: library.session(lib, mic: devices.mic, speaker: devices.speaker), screen: screen
            ).run()
        }
    }
}

/// `--speaker`, `--mic`: the devices a screen's actions use (home, recordings).
struct ScreenDevices: ParsableArguments {
    @Option(help: ArgumentHelp("ALSA playback device for the messages played from this screen.", valueName: "name"))
    var speaker: String = "default"

    @Option(help: ArgumentHelp("ALSA capture device for the messages recorded from this screen.", valueName: "name"))
    var mic: String = "default"
}
