import ArgumentParser
import CraveyLibrary
import Foundation

extension Cravey {
    /// `cravey settings [name [NAME | --clear]]`: the user's settings, kept in the library.
    struct Settings: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "settings",
            abstract: "Show or change settings: 'cravey settings name Ben' (the name in the check-in's greeting).",
            discussion: "Without arguments, prints every setting. 'cravey settings name --clear' forgets the name.")

        @OptionGroup var library: LibraryOptions

        @Argument(help: ArgumentHelp("The setting: name.", valueName: "setting"))
        var setting: String?

        @Argument(help: ArgumentHelp("Its new value (1–40 characters).", valueName: "value"))
        var value: String?

        @Flag(help: "Forget the setting's value.")
        var clear = false

        func run() throws {
            let lib = try library.open()
            guard let setting else {
                for key in Library.Setting.allCases {
                    print("\(key.rawValue)  \(try lib.setting(key).map(Terminal.safe) ?? "(not set)")")
                }
                return
            }
            guard let key = Library.Setting(rawValue: setting) else {
                throw CraveyFailure(message: "no setting called '\(Terminal.safe(String(setting.prefix(40))))' (there is: name)")
            }
            if clear {
                guard value == nil else { throw CraveyFailure(message: "--clear takes no value") }
                try lib.setSetting(key, to: nil)
                print("Forgot the \(key.rawValue).")
            } else if let value {
                let checked = try Validation.name(value)
                try lib.setSetting(key, to: checked)
                print("\(key.rawValue): \(Terminal.safe(checked))")
            } else {
                print(try lib.setting(key).map(Terminal.safe) ?? "(not set)")
            }
        }
    }
}
