import ArgumentParser
import CraveyLibrary
import CraveyTracker
import Foundation
import TerminalKit

extension Cravey.Settings {
    /// The price typed, if any.
    var amount: String? { amountTyped.first }

    /// What is left over is one amount at most; a negative number is an amount (the price refuses
    /// it in its own words), anything else starting with a dash is an option cravey does not know.
    func validate() throws {
        if let unknown = amountTyped.first(where: { $0.hasPrefix("-") && !($0.dropFirst().first?.isNumber ?? false) }) {
            throw ValidationError("Unknown option '\(unknown)'")
        }
        if amountTyped.count > 1 { throw ValidationError("Unexpected argument '\(amountTyped[1])'") }
    }

    /// `cravey settings price [METHOD [AMOUNT | --clear]] [--currency CODE] [--json]`: the price of
    /// one unit of a method (what money kept in progress is figured from) and its currency, shown
    /// The method, amount and currency typed for `price`, each checked (nothing is read or written).
    func typedPrice() throws -> (method: Method?, cents: Int?, code: String??) {
        let method = try value.map { name -> Method in
            guard let method = Method(name: name) else {
                throw CraveyFailure(
                    message:
                        "no method called '\(Terminal.safe(String(name.prefix(40))))' (methods: \(Method.allCases.map(\.rawValue).joined(separator: ", ")))"
                )
            }
            return method
        }
        let cents = try amount.map(Prices.parse)
        let code = try currency.map { typed -> String? in
            switch typed.lowercased() {
            case "none": "none"
            case "locale": nil
            default: try Currency.parse(typed)
            }
        }
        if clear {
            guard method != nil else { throw CraveyFailure(message: "--clear forgets one price: name its method") }
            guard cents == nil else { throw CraveyFailure(message: "--clear takes no amount") }
        }
        guard !output.json || (amount == nil && !clear && currency == nil) else {
            throw CraveyFailure(message: "--json shows the prices; it sets nothing")
        }
        return (method, cents, code)
    }

    /// `cravey settings price [METHOD [AMOUNT | --clear]] [--currency CODE] [--json]`: the price of
    /// one unit of a method (what money kept in progress is figured from) and its currency, shown
    /// or set. Everything typed is checked before anything is changed.
    func price(_ lib: Library) throws {
        let tracker = Tracker(library: lib)
        let (method, cents, code) = try typedPrice()
        if let code { try tracker.setCurrency(code) }
        if let method, let cents {
            try tracker.setPrice(cents, for: method)
        } else if let method, clear {
            try tracker.setPrice(nil, for: method)
            return print("Forgot the price of \(method.rawValue).")
        }
        if output.json { return try JSONOutput.print(try Self.pricesObject(tracker)) }
        if let method {
            let prices = try tracker.prices()
            return print("price: " + PriceWords.text(method, prices, try tracker.currency()))
        }
        if currency != nil, let line = try PriceWords.listed(lib).last {
            return print(line.replacingOccurrences(of: "currency  ", with: "currency: "))
        }
        try PriceWords.listed(lib).forEach { print($0) }
    }

    /// The prices as JSON: each method's price in the currency's units (null: not set), the
    /// currency's code (null: plain numbers) and whether it is the locale's.
    struct PricesObject: Encodable {
        var prices: [String: Double?]
        var currency: String?
        var currencyFromLocale: Bool

        enum CodingKeys: CodingKey { case prices, currency, currencyFromLocale }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            var each = c.nestedContainer(keyedBy: JSONKey.self, forKey: .prices)
            for method in Method.allCases {
                try each.encode(prices[method.rawValue] ?? nil, forKey: JSONKey(method.rawValue))
            }
            try c.encode(currency, forKey: .currency)
            try c.encode(currencyFromLocale, forKey: .currencyFromLocale)
        }
    }

    static func pricesObject(_ tracker: Tracker) throws -> PricesObject {
        let prices = try tracker.prices()
        return PricesObject(
            prices: Dictionary(
                uniqueKeysWithValues: Method.allCases.map { ($0.rawValue, prices.cents[$0].map { Double($0) / 100 }) }),
            currency: try tracker.currency().code, currencyFromLocale: !(try tracker.currencyChosen()))
    }

    /// `cravey settings --json`: every setting a person sets, and the version.
    struct EverySetting: Encodable {
        var goal: String?
        var name: String?
        var quickPlay: String
        var money: PricesObject
        var version: String

        enum CodingKeys: CodingKey { case goal, name, quickPlay, version }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(goal, forKey: .goal)
            try c.encode(name, forKey: .name)
            try c.encode(quickPlay, forKey: .quickPlay)
            try money.encode(to: encoder)  // prices, currency, currencyFromLocale
            try c.encode(version, forKey: .version)
        }
    }

    static func everySetting(_ lib: Library) throws -> EverySetting {
        let tracker = Tracker(library: lib)
        return EverySetting(
            goal: try lib.setting(.goal), name: try lib.setting(.name),
            quickPlay: try tracker.quickPlayOrder().rawValue,
            money: try pricesObject(tracker), version: Version.text)
    }

    /// An amount, a currency or --json given to a setting other than price: refused before anything is changed.
    func refuseWhatIsForPrices() throws {
        if amount != nil { throw CraveyFailure(message: "a setting takes one value ('cravey settings name Sam')") }
        if currency != nil {
            throw CraveyFailure(message: "--currency goes with price ('cravey settings price --currency EUR')")
        }
        if setting != nil && output.json {
            throw CraveyFailure(message: "--json prints every setting ('cravey settings --json')")
        }
    }
}
