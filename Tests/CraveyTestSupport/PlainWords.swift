import Foundation

/// Words a person reads must be words: no name from the code (a CamelCase word, a dotted name)
/// and no placeholder left unfilled (an interpolation, braces, a format directive, "nil").
public enum PlainWords {
    static let rules: [(what: String, pattern: String)] = [
        ("a CamelCase name", #"\b[A-Za-z]*[a-z][A-Z][A-Za-z]*\b"#),
        ("a dotted name", #"\b[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_]"#),
        ("an interpolation", #"\\\("#),
        ("a placeholder", #"[{}\[\]<>]|%[@dsifu]|\$[0-9]|\bnil\b|Optional\(|\bTODO\b|__"#),
    ]

    /// What is wrong with `text` ("a CamelCase name: ProgressFigures"), or nil when nothing is.
    public static func problem(_ text: String) -> String? {
        for rule in rules {
            if let found = text.range(of: rule.pattern, options: .regularExpression) {
                return "\(rule.what): \(text[found])"
            }
        }
        return nil
    }
}
