import ArgumentParser
import CraveyLibrary
import CraveyTracker
import Foundation
import TerminalKit

extension Cravey {
    /// `cravey settings [name [NAME | --clear]]`: the user's settings, kept in the library (prices:
    /// `SettingsPrice.swift`).
    struct Settings: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "settings",
            abstract:
                "Settings: on a terminal a screen (goal, name, export, delete all data, privacy, version); or 'cravey settings goal cut-down', 'cravey settings name Ben'.",
            discussion: """
                Without arguments and without a terminal, prints every setting. Goals: quit, cut-down, monitor, \
                harm-reduction, exploring. 'cravey settings name --clear' forgets the name. \
                'cravey settings quick-play helped-most' puts the messages that helped most first in Quick Play \
                (home's top three, 'cravey top', 'cravey play --top'); most-played (the default) puts the most \
                played first. 'cravey settings price bowls 10' sets the price of one unit of a method (per \
                bowl/joint, pull, dab, or 10 mg THC of edibles) for the money kept in progress; 'cravey settings \
                price bowls --clear' forgets it, '--currency GBP' (or none, or locale) chooses the currency. \
                --json prints every setting as JSON.
                """)

        @OptionGroup var library: LibraryOptions

        @Argument(help: ArgumentHelp("The setting: goal, name, quick-play or price.", valueName: "setting"))
        var setting: String?

        @Argument(
            help: ArgumentHelp(
                "Its new value (a goal; a name of 1–40 characters; most-played or helped-most; for price, the method).",
                valueName: "value"))
        var value: String?

        // Every input left over lands here, so that a negative price ("-5") reaches the price's own
        // words rather than "Unknown option" (`validate` refuses any other leftover as before).
        @Argument(
            parsing: .allUnrecognized,
            help: ArgumentHelp("For price: the price of one unit (12.50).", valueName: "amount"))
        var amountTyped: [String] = []

        @Option(
            help: ArgumentHelp(
                "For price: the currency, a code such as EUR or GBP (none: plain numbers; locale: the locale's).",
                valueName: "code"))
        var currency: String?

        @OptionGroup var output: OutputOptions

        @Flag(help: "Forget the setting's value.")
        var clear = false

        /// The settings a person sets (`welcomed` is the library's own).
        static let shown: [Library.Setting] = [.goal, .name, .quickPlay, .prices]

        /// A setting as typed and printed: "quick-play" for Quick Play's order, "price" for prices.
        static func name(_ key: Library.Setting) -> String {
            key == .quickPlay ? "quick-play" : key == .prices ? "price" : key.rawValue
        }

        func run() throws {
            if setting != "price" { try refuseWhatIsForPrices() }
            // Everything typed is checked before the library is opened: a refused command makes
            // no library and changes nothing.
            let key = try typedSetting()
            let lib = try library.openBringingInSync()
            guard let key else {
                if output.json { return try JSONOutput.print(try Self.everySetting(lib)) }
                if !clear, Terminal.stdinIsTerminal, Terminal.stdoutIsTerminal {
                    // The screen is given back before the last note is printed where it stays.
                    let note = try { () throws -> String? in
                        guard let screen = FullScreen() else { return nil }
                        return try SettingsScreen(session: library.session(lib), screen: screen).run()
                    }()
                    if let note { print(note) }
                    return
                }
                for key in Self.shown where key != .quickPlay && key != .prices {
                    print("\(key.rawValue)  \(try lib.setting(key).map(Terminal.safe) ?? "(not set)")")
                }
                print("quick-play  \(try Tracker(library: lib).quickPlayOrder().rawValue)")
                try PriceWords.listed(lib).forEach { print($0) }
                print("version  \(Cravey.configuration.version)")
                return
            }
            if key == .quickPlay { return try quickPlay(lib) }
            if key == .prices { return try price(lib) }
            if clear {
                guard value == nil else { throw CraveyFailure(message: "--clear takes no value") }
                try lib.setSetting(key, to: nil)
                print("Forgot the \(key.rawValue).")
            } else if let value, key == .goal {
                let goal = try Self.goal(value)
                try lib.setSetting(key, to: goal.rawValue)
                print("goal: \(goal.label) — \(goal.line)")
            } else if let value {
                let checked = try Validation.name(value)
                try lib.setSetting(key, to: checked)
                print("\(key.rawValue): \(Terminal.safe(checked))")
            } else {
                print(try lib.setting(key).map(Terminal.safe) ?? "(not set)")
            }
        }

        /// `cravey settings quick-play [most-played | helped-most]`: Quick Play's order, shown or
        /// set (--clear goes back to the most played).
        func quickPlay(_ lib: Library) throws {
            let tracker = Tracker(library: lib)
            if clear {
                guard value == nil else { throw CraveyFailure(message: "--clear takes no value") }
                try lib.setSetting(.quickPlay, to: nil)
            } else if let value {
                let order = try Self.order(value)
                try tracker.setQuickPlayOrder(order)
            }
            let order = try tracker.quickPlayOrder()
            print("quick-play: \(order.label)" + (order == .helpedMost ? " — then the most played" : ""))
        }

        /// The setting named and its value as typed, checked (nil: none named); nothing is read.
        func typedSetting() throws -> Library.Setting? {
            guard let setting else { return nil }
            guard let key = Self.shown.first(where: { Self.name($0) == setting }) else {
                throw CraveyFailure(
                    message:
                        "no setting called '\(Terminal.safe(String(setting.prefix(40))))' (there are: \(Self.shown.map(Self.name).joined(separator: ", ")))"
                )
            }
            switch (key, value) {
            case (.prices, _): _ = try typedPrice()
            case (_, let value?) where clear: _ = value
            case (.goal, let value?): _ = try Self.goal(value)
            case (.quickPlay, let value?): _ = try Self.order(value)
            case (.name, let value?): _ = try Validation.name(value)
            default: break
            }
            return key
        }

        /// A goal as typed.
        static func goal(_ typed: String) throws -> Goal { try oneOf(typed, "goal", listed: "goals") }

        /// A Quick Play order as typed.
        static func order(_ typed: String) throws -> QuickPlayOrder {
            try oneOf(typed, "Quick Play order", listed: "orders")
        }

        /// The value named `typed` (any case), or one line naming `what` and every value (`listed`).
        private static func oneOf<Value: RawRepresentable & CaseIterable>(
            _ typed: String, _ what: String, listed: String
        ) throws -> Value where Value.RawValue == String {
            guard let value = Value(rawValue: typed.lowercased()) else {
                throw CraveyFailure(
                    message:
                        "no \(what) called '\(Terminal.safe(String(typed.prefix(40))))' (\(listed): \(Value.allCases.map(\.rawValue).joined(separator: ", ")))"
                )
            }
            return value
        }
    }
}
