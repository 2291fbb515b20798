import CraveyMedia
import XCTest

/// The facts a remux hands back must be those a probe of its file reads: the recorder saves them
/// without reading the file again.
func remuxChecked(_ part: String, to final: String, file: StaticString = #filePath, line: UInt = #line) throws -> Int {
    let (packets, told) = try MediaFile.remux(part, to: final)
    let read = try MediaFile.probe(final)
    XCTAssertEqual(told.duration, read.duration, accuracy: 1e-9, "duration", file: file, line: line)
    XCTAssertEqual(told.fps ?? 0, read.fps ?? 0, accuracy: 0.01, "frame rate", file: file, line: line)
    var exact = told
    exact.duration = read.duration
    exact.fps = read.fps
    XCTAssertEqual(exact, read, file: file, line: line)
    return packets
}
