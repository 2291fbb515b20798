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
            var info = stat()
            if lstat(path, &info) == 0 {
                // Only a regular file is ever replaced: never a link (which would write elsewhere),
                // a device or a FIFO.
                guard (info.st_mode & S_IFMT) == S_IFREG else {
                    throw CraveyFailure(message: "\(path) is not a regular file (\(Self.kind(info.st_mode))); choose another with --output")
                }
                if !force {
                    throw CraveyFailure(message: "\(path) already exists; choose another with --output or replace it with --force")
                }
            }
            try Self.writePrivately(Data(text.utf8), to: path)
            print("Exported \(recordings.count) recording\(recordings.count == 1 ? "" : "s") to \(Terminal.safe(path))")
        }

        static func kind(_ mode: mode_t) -> String {
            switch mode & S_IFMT {
            case S_IFLNK: return "a symbolic link"
            case S_IFDIR: return "a directory"
            case S_IFIFO: return "a FIFO"
            case S_IFCHR, S_IFBLK: return "a device"
            case S_IFSOCK: return "a socket"
            default: return "not a file"
            }
        }

        /// Local date as YYYY-MM-DD.
        static func today() -> String {
            var now = time(nil)
            var parts = tm()
            localtime_r(&now, &parts)
            return String(format: "%04d-%02d-%02d", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday)
        }

        /// Writes a 0600 file through a new temporary file beside it and a rename, so a failure
        /// leaves nothing half-written. The temporary name is fresh (random, O_EXCL) and never
        /// followed through a link (O_NOFOLLOW), like mkstemp(3).
        static func writePrivately(_ data: Data, to path: String) throws {
            func failure(_ code: Int32) -> CraveyFailure {
                CraveyFailure(message: "cannot write \(path): \(String(cString: strerror(code)))")
            }
            var temp = ""
            var fd: Int32 = -1
            for _ in 0..<100 {
                temp = path + ".tmp-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
                fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
                if fd >= 0 || errno != EEXIST { break }
            }
            guard fd >= 0 else { throw failure(errno) }
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
                let renameCode = errno
                unlink(temp)
                throw failure(ok ? renameCode : code)
            }
        }
    }
}
