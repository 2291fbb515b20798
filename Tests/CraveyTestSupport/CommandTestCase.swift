// Test support is a plain target (test targets cannot share code with one another), so a
// `swift build` of the product builds it too; XCTest is there only when tests are built.
#if canImport(XCTest)
    import Foundation
    import XCTest

    /// What every end-to-end test file shares: a temporary directory (`base`) made before each test
    /// and removed after it, the library inside it (`root`), the built `cravey`, and JSON parsing.
    open class CommandTestCase: XCTestCase {
        public var base = ""
        public var root: String { base + "/lib" }
        /// The built `cravey`, as the tests run it (`craveyUnderTest`: no network where the tests run as root).
        public let cravey = craveyUnderTest

        open override func setUpWithError() throws {
            try super.setUpWithError()
            base =
                FileManager.default.temporaryDirectory.path
                + "/cravey-\(String(describing: type(of: self)))-\(UUID().uuidString.prefix(8))"
            try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        }

        open override func tearDownWithError() throws {
            try? FileManager.default.removeItem(atPath: base)
            try super.tearDownWithError()
        }

        /// `text` parsed as JSON (any value).
        public func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

        /// `text` parsed as one JSON object.
        public func jsonObject(_ text: String) throws -> [String: Any] {
            guard let object = try json(text) as? [String: Any] else {
                throw NSError(
                    domain: "json", code: 1,
                    userInfo: [NSLocalizedDescriptionKey: "not a JSON object: \(text.prefix(200))"])
            }
            return object
        }
    }
#endif
