import CraveyLibrary
import CraveyTracker
import TerminalKit

/// Prices in words: what `cravey settings price` prints and the settings screen's MONEY KEPT row.
enum PriceWords {
    /// "bowls €10.00 per bowl/joint", "vape (not set)".
    static func text(_ method: Method, _ prices: Prices, _ currency: Currency) -> String {
        method.rawValue + " "
            + (prices.cents[method].map { "\(currency.text(cents: Double($0))) per \(Prices.unit(method))" }
                ?? "(not set)")
    }

    /// The prices' lines of the settings printed: each price set (or "(not set)"), then the currency.
    static func listed(_ lib: Library) throws -> [String] {
        let tracker = Tracker(library: lib)
        let (set, currency) = try set(tracker)
        // One parenthesis says all: "EUR (from the locale)", "none (plain numbers, from the locale)".
        let notes = [
            currency.code == nil ? "plain numbers" : nil, try tracker.currencyChosen() ? nil : "from the locale",
        ]
        .compactMap { $0 }
        let code = (currency.code ?? "none") + (notes.isEmpty ? "" : " (" + notes.joined(separator: ", ") + ")")
        return [
            "price  " + (set.isEmpty ? "(not set)" : set.joined(separator: " · ")),
            "currency  " + code,
        ]
    }

    /// Each price set, as `text` says it, and the currency.
    static func set(_ tracker: Tracker) throws -> (prices: [String], currency: Currency) {
        let prices = try tracker.prices()
        let currency = try tracker.currency()
        return (Method.allCases.filter { prices.cents[$0] != nil }.map { text($0, prices, currency) }, currency)
    }

    /// The prices in one row, after the key that sets one (`m`).
    static func row(_ lib: Library) throws -> String {
        let set = try Self.set(Tracker(library: lib)).prices
        let text = set.isEmpty ? "not set — m sets the price of a method" : set.joined(separator: " · ")
        return Terminal.dim("MONEY KEPT") + "  " + Terminal.bold("m") + "  "
            + Terminal.fit(text, max(20, Terminal.columns - 17))
    }
}
