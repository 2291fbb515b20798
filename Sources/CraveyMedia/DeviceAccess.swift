import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Why a device node cannot be opened, found the way an administrator would: file modes, groups,
/// ACLs, and the processes holding it (from /proc/*/fd).
public enum DeviceAccess {
    /// A process that has a device open.
    public struct Holder: Sendable, Equatable, CustomStringConvertible {
        public var pid: Int32
        public var command: String
        public var description: String { "\(command) (pid \(pid))" }
    }

    /// Processes with any of `paths` open (other than this one).
    public static func holders(of paths: [String]) -> [Holder] {
        let targets = Set(paths.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path })
        var found: [Holder] = []
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), pid != getpid() else { continue }
            let fdDir = "/proc/\(entry)/fd"
            for fd in (try? FileManager.default.contentsOfDirectory(atPath: fdDir)) ?? [] {
                guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: fdDir + "/" + fd),
                    targets.contains(target)
                else { continue }
                let command =
                    (try? String(contentsOfFile: "/proc/\(entry)/comm", encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
                found.append(Holder(pid: pid, command: command))
                break
            }
        }
        return found
    }

    /// The capture nodes of ALSA cards (`/dev/snd/pcmC*D*c`), optionally of one card and device.
    public static func soundCaptureNodes(card: Int? = nil, device: Int? = nil) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/dev/snd")) ?? []).filter { name in
            guard name.hasPrefix("pcmC"), name.hasSuffix("c") else { return false }
            if let card, !name.hasPrefix("pcmC\(card)D") { return false }
            if let card, let device, name != "pcmC\(card)D\(device)c" { return false }
            return true
        }.sorted().map { "/dev/snd/" + $0 }
    }

    /// Who may open `path`, and what this user lacks: a sentence, or nil when access is fine.
    public static func permissionProblem(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        if access(path, R_OK | W_OK) == 0 { return nil }
        let group = getgrgid(info.st_gid).map { String(cString: $0.pointee.gr_name) } ?? "\(info.st_gid)"
        let user = getpwuid(getuid()).map { String(cString: $0.pointee.pw_name) } ?? "\(getuid())"
        let mode = String(info.st_mode & 0o777, radix: 8)
        let groupCanOpen = info.st_mode & 0o060 == 0o060
        if groupCanOpen && group != "root" {
            return "\(path) is mode \(mode), group '\(group)': user '\(user)' is not in group '\(group)' and no logind "
                + "'uaccess' ACL grants access (not the active local session)"
        }
        return "\(path) is mode \(mode), owner uid \(info.st_uid), group '\(group)': user '\(user)' may not open it"
    }

    /// Free bytes on the filesystem holding `path`.
    public static func freeBytes(at path: String) -> Int64? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    /// The card and device numbers in an ALSA `hw:`/`plughw:` name (`hw:1,0`, `hw:CARD=Loopback,DEV=1`,
    /// `hw:Loopback,1,0`), looking card ids up in /proc/asound/cards.
    public static func alsaCardAndDevice(_ name: String) -> (card: Int, device: Int?)? {
        guard let colon = name.firstIndex(of: ":") else { return nil }
        let prefix = name[..<colon]
        guard ["hw", "plughw", "sysdefault", "dsnoop", "front"].contains(prefix) else { return nil }
        let parts = name[name.index(after: colon)...].split(separator: ",").map {
            $0.split(separator: "=").last.map(String.init) ?? ""
        }
        guard let first = parts.first else { return nil }
        let card = Int(first) ?? cardNumber(id: first)
        guard let card else { return nil }
        return (card, parts.count > 1 ? Int(parts[1]) : nil)
    }

    private static func cardNumber(id: String) -> Int? {
        let cards = (try? String(contentsOfFile: "/proc/asound/cards", encoding: .utf8)) ?? ""
        for line in cards.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2, let number = Int(fields[0]) else { continue }
            if line.contains("[\(id)") { return number }
        }
        return nil
    }
}
