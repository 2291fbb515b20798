import ArgumentParser
import CraveyLibrary
import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension Cravey {
    /// `cravey export`: the library's metadata (not the media) as CSV or JSON.
    struct Export: ParsableCommand {
        enum FileFormat: String, ExpressibleByArgument, CaseIterable { case csv, json }

        static let configuration = CommandConfiguration(
            abstract: "Export the recordings' metadata (no media) to cravey_export_YYYY-MM-DD.csv or .json.")

        @OptionGroup var library: LibraryOptions

        @Option(help: "csv or json.")
        var format: FileFormat

        @Option(help: ArgumentHelp("Where to write (default: cravey_export_YYYY-MM-DD.<format> here; - for stdout).", valueName: "path"))
        var output: String?

        @Flag(help: "Replace the output file if it exists.")
        var force = false

        func run() throws {
            let recordings = try library.open().recordings()
            let text = format == .csv ? RecordingExport.csv(recordings) : RecordingExport.jsonArray(recordings) + "\n"
            if output == "-" {
                print(text, terminator: "")
                return
            }
            let path = output ?? "cravey_export_\(Self.today()).\(format.rawValue)"
            if !force && FileManager.default.fileExists(atPath: path) {
                throw CraveyFailure(message: "\(path) already exists; choose another with --output or replace it with --force")
            }
            try Self.writePrivately(Data(text.utf8), to: path)
            print("Exported \(recordings.count) recording\(recordings.count == 1 ? "" : "s") to \(path)")
        }

        /// Local date as YYYY-MM-DD.
        static func today() -> String {
            var now = time(nil)
            var parts = tm()
            localtime_r(&now, &parts)
            return String(format: "%04d-%02d-%02d", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday)
        }

        /// Writes a 0600 file through a temporary name and a rename, so a failure leaves nothing half-written.
        static func writePrivately(_ data: Data, to path: String) throws {
            let temp = path + ".tmp-\(getpid())"
            let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw CraveyFailure(message: "cannot write \(path): \(String(cString: strerror(errno)))") }
            let ok = data.withUnsafeBytes { raw -> Bool in
                var offset = 0
                while offset < raw.count {
                    let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                    if n < 0 { if errno == EINTR { continue }; return false }
                    offset += n
                }
                return fsync(fd) == 0
            }
            let code = errno
            close(fd)
            guard ok, rename(temp, path) == 0 else {
                unlink(temp)
                throw CraveyFailure(message: "cannot write \(path): \(String(cString: strerror(ok ? errno : code)))")
            }
        }
    }
}
