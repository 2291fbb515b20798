import CCairo
import Foundation

/// A PDF drawn in this process with cairo, its text laid out by pango: vector shapes and text on
/// pages of one size, in points (1/72 inch) from each page's top left corner. Nothing is written
/// anywhere while drawing: `finish` gives the PDF's bytes. Fonts come from fontconfig, whose
/// cache (written only when the system's is missing or stale) goes into `fontCache`, a private
/// folder the caller makes and removes.
public final class PDFDocument {
    /// A colour, each part 0–1.
    public struct Color: Sendable, Equatable {
        public var red, green, blue: Double
        public init(red: Double, green: Double, blue: Double) { (self.red, self.green, self.blue) = (red, green, blue) }
        /// `0xRRGGBB`.
        public init(_ rgb: UInt32) {
            self.init(
                red: Double(rgb >> 16 & 0xFF) / 255, green: Double(rgb >> 8 & 0xFF) / 255,
                blue: Double(rgb & 0xFF) / 255)
        }
    }

    /// A font: its family, weight and size in points.
    public struct Font: Sendable, Equatable {
        public var size: Double
        public var bold: Bool
        public init(size: Double, bold: Bool = false) { (self.size, self.bold) = (size, bold) }
        /// Pango's description of it: the system's sans-serif face.
        var description: String { "Sans\(bold ? " Bold" : "") \(size)" }
    }

    public enum Alignment: Int32, Sendable { case left = 0, center = 1, right = 2 }

    /// Why a PDF could not be made, in words for the person.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public let width: Double
    public let height: Double
    private let document: OpaquePointer
    /// fontconfig's cache folder (0700, in the temporary directory), removed with the document.
    private let fontCache: String

    /// A new document whose first page is open; its fonts' cache folder is made in
    /// `temporaryDirectory`.
    public init(width: Double, height: Double, title: String, temporaryDirectory: String) throws {
        guard CCairo_load() == 0 else { throw Failure(description: String(cString: CCairo_load_message())) }
        let parent = temporaryDirectory.hasSuffix("/") ? String(temporaryDirectory.dropLast()) : temporaryDirectory
        var template = Array((parent + "/cravey-fonts-XXXXXX").utf8CString)
        guard let folder = mkdtemp(&template) else {
            throw Failure(
                description:
                    "no private folder for the fonts could be made in the temporary folder (TMPDIR): \(String(cString: strerror(errno)))"
            )
        }
        fontCache = String(cString: folder)
        var made: OpaquePointer?
        let status = CCairo_document_open(width, height, title, fontCache, &made)
        guard status == 0, let made else {
            Self.remove(fontCache)
            throw Failure(
                description: "cannot start the PDF: no font could be loaded (\(String(cString: strerror(-status))))")
        }
        (self.width, self.height, document) = (width, height, made)
    }

    deinit {
        CCairo_document_free(document)
        Self.remove(fontCache)
    }

    /// Removes the folder and whatever fontconfig wrote into it.
    private static func remove(_ folder: String) { try? FileManager.default.removeItem(atPath: folder) }

    /// Ends the page and starts the next.
    public func newPage() { CCairo_document_page(document) }

    /// Fills a rectangle (its corners rounded by `radius`).
    public func fill(x: Double, y: Double, width: Double, height: Double, radius: Double = 0, color: Color) {
        set(color)
        CCairo_document_rectangle(document, x, y, width, height, radius)
        CCairo_document_fill(document)
    }

    /// Outlines a rectangle `lineWidth` wide.
    public func frame(
        x: Double, y: Double, width: Double, height: Double, radius: Double = 0, lineWidth: Double, color: Color
    ) {
        set(color)
        CCairo_document_rectangle(document, x, y, width, height, radius)
        CCairo_document_stroke(document, lineWidth)
    }

    /// Fills a circle.
    public func dot(x: Double, y: Double, radius: Double, color: Color) {
        set(color)
        CCairo_document_circle(document, x, y, radius)
        CCairo_document_fill(document)
    }

    /// A line through `points`, `lineWidth` wide, round at its ends and joints.
    public func line(_ points: [(x: Double, y: Double)], lineWidth: Double, color: Color) {
        guard let first = points.first, points.count > 1 else { return }
        set(color)
        CCairo_document_move_to(document, first.x, first.y)
        for point in points.dropFirst() { CCairo_document_line_to(document, point.x, point.y) }
        CCairo_document_stroke(document, lineWidth)
    }

    /// The size `text` takes in `font`, wrapped at `width` (nil: one line).
    public func measure(_ text: String, font: Font, width: Double? = nil) -> (width: Double, height: Double) {
        layout(text, font: font, x: 0, y: 0, width: width, alignment: .left, draw: false)
    }

    /// Writes `text` with its top left corner at (`x`, `y`), wrapped at `width` (nil: one line)
    /// and aligned within it; returns the height it took.
    @discardableResult
    public func text(
        _ text: String, x: Double, y: Double, width: Double? = nil, font: Font, color: Color,
        alignment: Alignment = .left
    ) -> Double {
        set(color)
        return layout(text, font: font, x: x, y: y, width: width, alignment: alignment, draw: true).height
    }

    /// The finished PDF. The document draws nothing after it.
    public func finish() throws -> Data {
        var bytes: UnsafePointer<UInt8>?
        var length = 0
        let status = CCairo_document_finish(document, &bytes, &length)
        guard status == 0, let bytes else {
            throw Failure(description: "cannot finish the PDF (\(String(cString: CCairo_document_error(document))))")
        }
        return Data(bytes: bytes, count: length)
    }

    private func set(_ color: Color) { CCairo_document_color(document, color.red, color.green, color.blue) }

    private func layout(
        _ text: String, font: Font, x: Double, y: Double, width: Double?, alignment: Alignment, draw: Bool
    ) -> (width: Double, height: Double) {
        var size = (width: 0.0, height: 0.0)
        // A Swift string is valid UTF-8; a NUL in it would end the text early, so none is passed.
        let clean = text.replacingOccurrences(of: "\0", with: "")
        _ = CCairo_document_text(
            document, clean, font.description, x, y, width ?? 0, alignment.rawValue, draw ? 1 : 0,
            &size.width, &size.height)
        return size
    }
}
