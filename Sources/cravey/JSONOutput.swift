import Foundation

/// `--json` output of commands other than the recording listings, through `Codable`: one JSON
/// document on stdout. (Recordings use `RecordingExport`, which writes thousands of rows fast and
/// escapes direction overrides and C1 controls that JSONEncoder leaves raw.)
enum JSONOutput {
    static func print<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }
}
