import CraveyLibrary
import Foundation

/// What one unit of each method costs, as the person set it (optional; never asked for on the
/// first run). A unit is what the method counts: a bowl or joint, a pull, a dab, and for edibles
/// 10 mg of THC. Kept in whole cents (hundredths of the currency).
public struct Prices: Sendable, Equatable {
    public var cents: [Method: Int] = [:]

    public init(cents: [Method: Int] = [:]) { self.cents = cents }

    /// Prices as stored (`{"bowls":1000}`), read leniently: what is not a method with a price
    /// from 1 cent to 99,999.99 is left out, the valid prices kept (`Validation.prices`, the rule
    /// `check` names it by and restore refuses it by).
    public init(text: String?) {
        guard let data = text.flatMap({ Validation.prices($0).kept })?.data(using: .utf8),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return }
        for (name, value) in object {
            guard let method = Method(rawValue: name), let number = value as? NSNumber else { continue }
            let price = Double(truncating: number)
            if price == price.rounded(), Self.range.contains(price) { cents[method] = Int(price) }
        }
    }

    /// As stored: the methods' names in their order (nil when there is none).
    public var text: String? {
        guard !cents.isEmpty else { return nil }
        let fields = Method.allCases.compactMap { method in cents[method].map { "\"\(method.rawValue)\":\($0)" } }
        return "{" + fields.joined(separator: ",") + "}"
    }

    public var isEmpty: Bool { cents.isEmpty }

    static let range = 1.0...9_999_999

    /// The unit a price is for: "bowl/joint", "pull", "dab", "10 mg THC".
    public static func unit(_ method: Method) -> String {
        method == .edible ? "10 mg THC" : method.unit(for: 1)
    }

    /// How many priced units an amount is (edibles are priced per 10 mg).
    static func units(_ method: Method, _ amount: Double) -> Double {
        method == .edible ? amount / 10 : amount
    }

    /// What a use cost, in cents (0 when its method has no price).
    func cost(_ method: Method, _ amount: Double) -> Double {
        cents[method].map { Double($0) * Self.units(method, amount) } ?? 0
    }

    /// A price as typed ("12.50", "12,50", "8"): whole cents, above 0 and at most 99,999.99.
    public static func parse(_ typed: String) throws -> Int {
        let text = typed.trimmingCharacters(in: .whitespaces)
        let parts = text.split(separator: text.contains(",") ? "," : ".", omittingEmptySubsequences: false)
        let reason = "a price is a number above 0 with at most two decimals (12.50), at most 99999.99"
        guard (1...2).contains(parts.count), let whole = parts.first, (1...5).contains(whole.count),
            whole.allSatisfy({ $0.isASCII && $0.isNumber }), let units = Int(whole),
            parts.count == 1 || (1...2).contains(parts[1].count),
            parts.count == 1 || parts[1].allSatisfy({ $0.isASCII && $0.isNumber })
        else { throw TrackerError.invalid(field: "price", reason: reason) }
        let fraction = parts.count == 2 ? Int(parts[1].padding(toLength: 2, withPad: "0", startingAt: 0)) ?? 0 : 0
        let cents = units * 100 + fraction
        guard cents > 0 else { throw TrackerError.invalid(field: "price", reason: reason) }
        return cents
    }
}

/// The currency money is shown in: an ISO 4217 code, or none (plain numbers).
public struct Currency: Sendable, Equatable {
    public let code: String?

    public init(code: String?) { self.code = code }

    /// The locale's currency, from `LC_ALL`, `LC_MONETARY` or `LANG` (the first set, as the C
    /// library reads them): the country of `de_DE.UTF-8` is Germany, so euros. None for a locale
    /// without a country or one not in the table.
    public static func ofLocale(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Currency {
        let locale = ["LC_ALL", "LC_MONETARY", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let name = locale.split(separator: ".").first.flatMap { $0.split(separator: "@").first } ?? ""
        let parts = name.split(separator: "_")
        guard parts.count == 2 else { return Currency(code: nil) }
        return Currency(code: countries[parts[1].uppercased()])
    }

    /// Countries by their ISO 3166 code and the currency they use.
    static let countries: [String: String] = {
        var table: [String: String] = [
            "US": "USD", "PR": "USD", "EC": "USD", "SV": "USD", "GB": "GBP", "CH": "CHF", "LI": "CHF", "CA": "CAD",
            "AU": "AUD", "NZ": "NZD", "JP": "JPY", "SE": "SEK", "NO": "NOK", "DK": "DKK", "IS": "ISK", "PL": "PLN",
            "CZ": "CZK", "HU": "HUF", "RO": "RON", "TR": "TRY", "UA": "UAH", "IL": "ILS", "IN": "INR", "BR": "BRL",
            "MX": "MXN", "AR": "ARS", "CL": "CLP", "CO": "COP", "ZA": "ZAR", "KR": "KRW", "CN": "CNY", "HK": "HKD",
            "SG": "SGD", "TH": "THB",
        ]
        for euro in [
            "AT", "BE", "BG", "CY", "DE", "EE", "ES", "FI", "FR", "GR", "HR", "IE", "IT", "LT", "LU", "LV", "MT",
            "NL", "PT", "SI", "SK",
        ] { table[euro] = "EUR" }
        return table
    }()

    /// A code as typed ("eur", "CHF"): three letters, in capitals.
    public static func parse(_ typed: String) throws -> String {
        let code = typed.trimmingCharacters(in: .whitespaces).uppercased()
        guard code.count == 3, code.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            throw TrackerError.invalid(
                field: "currency", reason: "a currency is a three-letter code (EUR, USD, GBP), none or locale")
        }
        return code
    }

    static let symbols = ["EUR": "€", "USD": "$", "GBP": "£", "JPY": "¥", "INR": "₹"]
    /// Currencies without cents.
    static let whole: Set<String> = ["JPY", "KRW", "ISK", "CLP"]

    /// An amount of cents as a person reads it: "€12.50", "£3.00", "12.50 CHF", "12.50" (none).
    public func text(cents: Double) -> String {
        let decimals = code.map { Self.whole.contains($0) } == true ? 0 : 2
        let number = String(format: "%.\(decimals)f", Self.rounded(cents, code: code) / 100)
        guard let code else { return number }
        return Self.symbols[code].map { $0 + number } ?? "\(number) \(code)"
    }

    /// Cents rounded as the currency counts them (to whole cents, or whole units).
    static func rounded(_ cents: Double, code: String?) -> Double {
        code.map { whole.contains($0) } == true ? (cents / 100).rounded() * 100 : cents.rounded()
    }
}

/// Money kept: what was not spent, against the person's first week, shown only once a price is
/// set. The definitions (on local days, as every progress figure):
///
/// - **A use's cost**: its amount in priced units × its method's price (edibles per 10 mg); a use
///   of a method without a price costs nothing, in the first week and after.
/// - **First week**: the day of the first craving or use and the 6 after it. Its cost is the
///   **baseline**; a day's share of it is the baseline ÷ 7.
/// - **Someone who set out to quit**: kept = the baseline ÷ 7 × the days since the last use
///   (today minus the day of the latest use), counted from the day after it.
/// - **Everyone else** (cutting down, or any other goal): counted from the day after the first
///   week, once it is over. Kept = the baseline ÷ 7 × the days from then to today − what those
///   days cost, and never below 0. **This week** (once the last 7 days are all after the first
///   week) = the baseline − what the last 7 days cost, never below 0.
public struct MoneyKept: Sendable, Equatable {
    public enum Basis: String, Sendable, Encodable {
        /// The days since the last use (the goal is to quit).
        case lastUse
        /// The days after the first week.
        case firstWeek
    }

    public var basis: Basis
    public var currency: Currency
    /// The first week's cost, in cents.
    public var baseline: Double
    /// The first week's last day.
    public var firstWeekEnds: LocalDay
    /// The first day counted (nil: none yet).
    public var since: LocalDay?
    /// How many days are counted (from `since` to today).
    public var days: Int
    /// What was kept over those days, in cents (0 when nothing was).
    public var kept: Double
    /// This week against the first, in cents (`firstWeek` only, once the last 7 days are after it).
    public var thisWeek: Double?

    /// The money kept as of `today` from the uses (day, method, amount) up to it; nil without a price.
    init?(
        prices: Prices, currency: Currency, goal: Goal?, uses: [(day: Int, method: Method, amount: Double)],
        firstLogDay: Int?, today: Int
    ) {
        guard !prices.isEmpty, let first = firstLogDay else { return nil }
        self.currency = currency
        let uses = uses.filter { $0.day <= today }
        func cost(_ days: ClosedRange<Int>) -> Double {
            uses.lazy.filter { days.contains($0.day) }.reduce(0) { $0 + prices.cost($1.method, $1.amount) }
        }
        firstWeekEnds = LocalDay(number: first + 6)
        baseline = first <= today ? cost(first...min(first + 6, today)) : 0
        let perDay = baseline / 7
        thisWeek = nil
        if goal == .quit {
            basis = .lastUse
            let last = uses.map(\.day).max() ?? today
            days = today - last
            since = days > 0 ? LocalDay(number: last + 1) : nil
        } else {
            basis = .firstWeek
            days = max(0, today - (first + 6))
            since = days > 0 ? LocalDay(number: first + 7) : nil
        }
        guard baseline > 0, days > 0 else {
            (kept, since) = (0, baseline > 0 ? since : nil)
            return
        }
        if basis == .lastUse {
            kept = perDay * Double(days)
        } else {
            kept = max(0, perDay * Double(days) - cost((first + 7)...today))
            if days >= 7 { thisWeek = max(0, baseline - cost((today - 6)...today)) }
        }
    }

    /// An amount in the currency: "€12.50".
    public func text(_ cents: Double) -> String { currency.text(cents: cents) }

    /// An amount in the currency's units, rounded as it counts (for JSON: 12.5).
    public func units(_ cents: Double) -> Double { Currency.rounded(cents, code: currency.code) / 100 }
}

extension Tracker {
    /// The prices set (empty when none is).
    public func prices() throws -> Prices {
        Prices(text: try library.setting(.prices))
    }

    /// Sets a method's price in cents (nil forgets it).
    public func setPrice(_ cents: Int?, for method: Method) throws {
        var prices = try self.prices()
        prices.cents[method] = cents
        try library.setSetting(.prices, to: prices.text)
    }

    /// The currency chosen in settings, else the locale's (`environment`'s).
    public func currency(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Currency {
        switch try library.setting(.currency) {
        case nil: Currency.ofLocale(environment)
        case "none": Currency(code: nil)
        case let code?: Currency(code: code)
        }
    }

    /// Whether the currency was chosen in settings (not the locale's).
    public func currencyChosen() throws -> Bool { try library.setting(.currency) != nil }

    /// Chooses the currency: a code, "none" for plain numbers, or nil for the locale's.
    public func setCurrency(_ code: String?) throws {
        try library.setSetting(.currency, to: code)
    }
}
