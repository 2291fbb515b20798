import Foundation

#if canImport(Glibc)
    import Glibc
#endif
#if canImport(XCTest)
    import XCTest
#endif

/// Two real Syncthing instances (Debian's `syncthing`, 1.19) sharing one folder between two local
/// paths, on this machine's loopback alone: the transport a person would choose, for tests of
/// anything that syncs through a folder.
///
/// Each instance has its own home (its config, keys and index database, made by `syncthing
/// generate` and then a config written here), a private HOME and XDG folders beside it (never the
/// sentinel), and `STNOUPGRADE=1`. It listens on 127.0.0.1 only: the GUI and REST API and the sync
/// port each on a free loopback port; global and local discovery, relays, NAT traversal (and with
/// it STUN), usage and crash reporting and automatic upgrades are off. The two devices know each
/// other by id; A dials B at its loopback port (one dialer, see `writeConfig`). The folder's watcher and periodic rescans are off too:
/// a test says when a side is scanned (`rescan()`, through the REST API), so it never waits on the
/// watcher's delay.
///
/// How a sync test uses it (the libraries and the folder paths are the test's):
///
///     let pair = try SyncthingPair.start(in: base, stoppedBy: self)
///     run cravey sync --folder \(pair.a.folder) --library A     (once per machine)
///     run cravey sync --folder \(pair.b.folder) --library B
///     try pair.pause()                       (optional: both log while apart)
///     … log on A and on B …
///     try pair.resume()
///     try pair.rescan()                      (both sides scan what cravey wrote)
///     try pair.waitInSync()                  (bounded; throws with both logs' tails)
///     run cravey sync --library A, then --library B
///     (and again rescan, waitInSync and sync, until neither side has anything new)
///
/// What Syncthing itself puts in the folder, which a reader of the folder meets: the folder
/// marker `.stfolder/` (a directory, made here before the start), temporary files while a file is
/// pulled (`.syncthing.NAME.tmp`, in the file's own directory), and a conflict copy where both
/// sides changed one file while apart: the older change is kept beside the winner as
/// `NAME.sync-conflict-YYYYMMDD-HHMMSS-DEVICE.EXT` (DEVICE: the first 7 characters of a device id,
/// `A-Z` and `2-7`), for example `changes.sync-conflict-20261127-001247-JYESRPF.jsonl`; it is
/// synced to both sides like any file. `conflictPattern` matches such a name.
///
/// Both instances stop on every exit path: `stop()` (idempotent) is called by the test's teardown
/// when the pair is started with `stoppedBy:`, by `deinit`, and by a failed start before it
/// throws; each runs under `setpriv --pdeathsig KILL`, so a test process that dies takes them
/// with it (start the pair on the test's own thread). Only the two process ids started here are
/// ever signalled.
public final class SyncthingPair {
    public static let program = "/usr/bin/syncthing"
    /// The folder's id in both configs.
    public static let folderID = "cravey"
    /// A conflict copy's name: the file's name, the marker, the date, the time and a short device id.
    public static let conflictPattern = #"^(.+)\.sync-conflict-[0-9]{8}-[0-9]{6}-[A-Z2-7]{7}(\.[^.]*)?$"#

    /// One Syncthing: its home, its folder path, its device id, its ports, its process.
    public final class Instance {
        public let name: String
        /// Its own folder: config, keys, index database, its log (`syncthing.log`), its private home.
        public let home: String
        /// The shared folder's local path on this side.
        public let folder: String
        public let deviceID: String
        public let guiPort: UInt16
        public let listenPort: UInt16
        let apiKey: String
        var process: Process?

        init(name: String, home: String, folder: String, deviceID: String, ports: (UInt16, UInt16)) {
            (self.name, self.home, self.folder, self.deviceID) = (name, home, folder, deviceID)
            (guiPort, listenPort) = ports
            apiKey = "cravey-test-" + UUID().uuidString
        }

        /// The process id while it runs.
        public var pid: Int32? { process.flatMap { $0.isRunning ? $0.processIdentifier : nil } }

        /// The last lines of its log (for a failure's message).
        public func logTail(_ lines: Int = 25) -> String {
            let text = (try? String(contentsOfFile: home + "/syncthing.log", encoding: .utf8)) ?? ""
            return text.split(separator: "\n").suffix(lines).joined(separator: "\n")
        }

        /// Scans the shared folder now; returns when the scan is done.
        public func rescan() throws {
            _ = try request("POST", "/rest/db/scan?folder=" + SyncthingPair.folderID, timeout: 60)
        }

        /// A GET of the REST API, parsed as one JSON object.
        public func get(_ path: String) throws -> [String: Any] {
            let body = try request("GET", path)
            guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else {
                throw SyncthingPair.Failure("\(name): \(path) did not answer with a JSON object")
            }
            return object
        }

        /// One HTTP/1.0 request to the REST API on loopback (no proxy can come between); the
        /// body of a 200 answer.
        @discardableResult
        func request(_ method: String, _ path: String, timeout: TimeInterval = 10) throws -> Data {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw SyncthingPair.Failure("socket: \(String(cString: strerror(errno)))") }
            defer { close(fd) }
            var wait = timeval(tv_sec: Int(timeout), tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
            var address = SyncthingPair.loopback(port: guiPort)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else {
                throw SyncthingPair.Failure(
                    "\(name): no REST API on 127.0.0.1:\(guiPort) (\(String(cString: strerror(errno))))")
            }
            let head =
                "\(method) \(path) HTTP/1.0\r\nHost: 127.0.0.1:\(guiPort)\r\nX-API-Key: \(apiKey)\r\n"
                + "Content-Length: 0\r\nConnection: close\r\n\r\n"
            let bytes = Array(head.utf8)
            guard bytes.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == bytes.count
            else {
                throw SyncthingPair.Failure("\(name): the request \(path) could not be sent")
            }
            var answer = Data()
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if count > 0 {
                    answer.append(contentsOf: buffer[0..<count])
                } else if count == 0 {
                    break
                } else if errno != EINTR {
                    throw SyncthingPair.Failure("\(name): no answer to \(path) within \(Int(timeout)) s")
                }
            }
            guard let split = answer.firstRange(of: Data("\r\n\r\n".utf8)) else {
                throw SyncthingPair.Failure("\(name): \(path) answered without an HTTP head")
            }
            let status = String(decoding: answer[..<split.lowerBound], as: UTF8.self).split(separator: " ").dropFirst()
                .first
            let body = answer[split.upperBound...]
            guard status == "200" else {
                throw SyncthingPair.Failure(
                    "\(name): \(method) \(path) answered \(status ?? "nothing"): \(String(decoding: body, as: UTF8.self))"
                )
            }
            return Data(body)
        }
    }

    /// Why the pair could not do what was asked, with what the instances said.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    public let a: Instance
    public let b: Instance
    /// How long each step took (name, seconds), in order: "start", "connect", each rescan and wait.
    public private(set) var timings: [(step: String, seconds: Double)] = []

    /// Makes both instances' homes under `base` (`syncthing-a/`, `syncthing-b/`) and the two
    /// folder paths (`sync-a/`, `sync-b/` unless given), starts both and returns once they are
    /// connected to each other. A failure on the way stops what was started, then throws.
    public init(in base: String, folders: (String, String)? = nil, connectWithin timeout: TimeInterval = 20) throws {
        let started = Date()
        let paths = folders ?? (base + "/sync-a", base + "/sync-b")
        let ports = try Self.freeLoopbackPorts(4)
        a = try Self.generate("a", home: base + "/syncthing-a", folder: paths.0, ports: (ports[0], ports[1]))
        b = try Self.generate("b", home: base + "/syncthing-b", folder: paths.1, ports: (ports[2], ports[3]))
        do {
            // B first: A's first dial then finds it listening (a dial that fails waits for the
            // next reconnection round).
            for (me, other) in [(b, a), (a, b)] {
                try Self.writeConfig(of: me, peer: other)
                try Self.launch(me)
                try waitUntil("\(me.name)'s REST API answers", within: timeout) {
                    (try? me.request("GET", "/rest/system/ping")) != nil
                }
            }
            timings.append(("start", Date().timeIntervalSince(started)))
            try waitConnected(within: timeout)
        } catch {
            stop()
            throw error
        }
    }

    /// A pair started under `base`, stopped by `testCase`'s teardown (whatever the test did).
    public static func start(in base: String, stoppedBy testCase: AnyObject? = nil) throws -> SyncthingPair {
        let pair = try SyncthingPair(in: base)
        #if canImport(XCTest)
            (testCase as? XCTestCase)?.addTeardownBlock { pair.stop() }
        #endif
        return pair
    }

    deinit { stop() }

    /// Scans both sides' folders now (A then B); returns when both scans are done.
    public func rescan() throws {
        let started = Date()
        try a.rescan()
        try b.rescan()
        timings.append(("rescan", Date().timeIntervalSince(started)))
    }

    /// Pauses each device on the other side: nothing goes across until `resume()`.
    public func pause() throws {
        try a.request("POST", "/rest/system/pause?device=" + b.deviceID)
        try b.request("POST", "/rest/system/pause?device=" + a.deviceID)
        try waitUntil("both sides let go of each other", within: 10) {
            try !self.connected(a, to: b) && !self.connected(b, to: a)
        }
    }

    /// Resumes both devices; returns once they are connected again. B first: A's dial, the
    /// only one, then finds B taking connections.
    public func resume(within timeout: TimeInterval = 20) throws {
        try b.request("POST", "/rest/system/resume?device=" + a.deviceID)
        try a.request("POST", "/rest/system/resume?device=" + b.deviceID)
        try waitConnected(within: timeout)
    }

    /// Rounds of a sync test over the pair: both sides rescanned and waited for, then `sync` run
    /// on each machine, until `done` holds or `limit` rounds are over; returns the rounds taken.
    @discardableResult
    public func syncRounds(upTo limit: Int, _ sync: () throws -> Void, until done: () throws -> Bool) throws -> Int {
        var rounds = 0
        while rounds < limit {
            rounds += 1
            try rescan()
            try waitInSync()
            try sync()
            if try done() { break }
        }
        return rounds
    }

    /// Waits (bounded) until the two sides hold the same folder: connected, both idle with
    /// nothing left to pull and no pull errors, each side's view of the other 100 % complete with
    /// no items or deletes needed, and the same global count of items and bytes on both. The
    /// seconds it took.
    @discardableResult
    public func waitInSync(within timeout: TimeInterval = 20) throws -> Double {
        let started = Date()
        var seen = ""
        do {
            try waitUntil("both sides in sync", within: timeout) {
                var views: [[String: Any]] = []
                for (me, other) in [(a, b), (b, a)] {
                    let status = try me.get("/rest/db/status?folder=" + Self.folderID)
                    let completion = try me.get(
                        "/rest/db/completion?folder=" + Self.folderID + "&device=" + other.deviceID)
                    seen +=
                        "\n\(me.name): state \(status["state"] ?? "?"), needTotalItems \(status["needTotalItems"] ?? "?"), "
                        + "pullErrors \(status["pullErrors"] ?? "?"), completion of \(other.name) \(completion["completion"] ?? "?")"
                    guard try connected(me, to: other), status["state"] as? String == "idle",
                        Self.number(status["needTotalItems"]) == 0, Self.number(status["pullErrors"]) == 0,
                        Self.number(completion["completion"]) == 100, Self.number(completion["needItems"]) == 0,
                        Self.number(completion["needDeletes"]) == 0
                    else { return false }
                    views.append(status)
                }
                return Self.number(views[0]["globalTotalItems"]) == Self.number(views[1]["globalTotalItems"])
                    && Self.number(views[0]["globalBytes"]) == Self.number(views[1]["globalBytes"])
            }
        } catch let failure as Failure {
            throw Failure(
                failure.description + "; last seen:" + seen.split(separator: "\n").suffix(2).joined(separator: ";"))
        }
        let seconds = Date().timeIntervalSince(started)
        timings.append(("in sync", seconds))
        return seconds
    }

    /// Stops both instances (SIGTERM, then SIGKILL after 5 s) and reaps them; idempotent.
    public func stop() {
        for instance in [a, b] {
            guard let process = instance.process else { continue }
            if process.isRunning {
                kill(process.processIdentifier, SIGTERM)
                let deadline = Date().addingTimeInterval(5)
                while process.isRunning && Date() < deadline { usleep(20_000) }
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            }
            process.waitUntilExit()
            instance.process = nil
        }
    }

    /// Every inet socket (TCP and UDP, any state) the two processes hold, as `ss` lists them:
    /// (netid, local address, peer address).
    public func sockets() throws -> [(netid: String, local: String, peer: String)] {
        let pids = [a.pid, b.pid].compactMap { $0 }
        guard pids.count == 2 else { throw Failure("both instances must be running to list their sockets") }
        let listed = try runProcess("/usr/bin/ss", ["-H", "-t", "-u", "-a", "-n", "-p"])
        guard listed.status == 0 else { throw Failure("ss failed: \(listed.stderr)") }
        return listed.stdout.split(separator: "\n").compactMap { line in
            guard pids.contains(where: { line.contains("pid=\($0),") }) else { return nil }
            let fields = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard fields.count >= 6 else { return nil }
            return (netid: fields[0], local: fields[4], peer: fields[5])
        }
    }

    // MARK: - Making and starting

    /// A free TCP port on 127.0.0.1 for each of `count` (bound together, then let go).
    static func freeLoopbackPorts(_ count: Int) throws -> [UInt16] {
        var held: [Int32] = []
        defer { held.forEach { close($0) } }
        var ports: [UInt16] = []
        for _ in 0..<count {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw Failure("socket: \(String(cString: strerror(errno)))") }
            held.append(fd)
            var address = loopback(port: 0)
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
                }
            }
            guard bound else { throw Failure("no free loopback port: \(String(cString: strerror(errno)))") }
            ports.append(UInt16(bigEndian: address.sin_port))
        }
        return ports
    }

    static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    /// The instance's home and private home, its keys (`syncthing generate`), its device id, and
    /// the folder path with Syncthing's folder marker.
    static func generate(_ name: String, home: String, folder: String, ports: (UInt16, UInt16)) throws -> Instance {
        for path in [home, home + "/home", home + "/home/.runtime", folder, folder + "/.stfolder"] {
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let made = try runProcess(
            program, ["generate", "--home=" + home, "--no-default-folder", "--skip-port-probing"],
            environment: Self.environment(home))
        guard made.status == 0 else { throw Failure("syncthing generate failed: \(made.stderr)\(made.stdout)") }
        let config = try String(contentsOfFile: home + "/config.xml", encoding: .utf8)
        guard let id = config.firstMatch(of: #/<device id="([A-Z0-9-]+)"/#)?.1 else {
            throw Failure("syncthing generate wrote no device id in \(home)/config.xml")
        }
        return Instance(name: name, home: home, folder: folder, deviceID: String(id), ports: ports)
    }

    /// The environment each instance runs in: a private HOME and XDG folders inside its own
    /// folder, no proxy, no upgrade, no monitor process, no default folder, and the standard
    /// SHA-256 (no benchmark at the start).
    static func environment(_ home: String) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        for name in ["http_proxy", "https_proxy", "all_proxy", "no_proxy"] {
            env[name] = nil
            env[name.uppercased()] = nil
        }
        env.merge(Sentinel.homeEnvironment(home + "/home")) { $1 }
        env["XDG_RUNTIME_DIR"] = home + "/home/.runtime"
        // STMONITORED: it runs as the one process started here (without it, even with
        // --no-restart, it forks a monitored child that would hold the sockets and outlive a kill).
        env.merge([
            "STNOUPGRADE": "1", "STNORESTART": "1", "STNODEFAULTFOLDER": "1", "STHASHING": "standard",
            "STMONITORED": "yes",
        ]) { $1 }
        return env
    }

    /// `text` safe inside an XML attribute or element.
    static func xml(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&apos;")
    }

    /// The whole config of `me` (the keys `generate` made stay): the shared folder, both devices,
    /// the GUI on loopback with the API key, and every option that would reach beyond this
    /// machine off. A alone dials, B at its loopback address; B knows no address of A's (without
    /// discovery, `dynamic` is none) and only takes A's connection: two dialing each other at
    /// once can each keep the connection the other closed, and then meet again in step at every
    /// reconnection round.
    static func writeConfig(of me: Instance, peer: Instance) throws {
        let address = me.name == "a" ? "tcp://127.0.0.1:\(peer.listenPort)" : "dynamic"
        let config = """
            <configuration version="36">
                <folder id="\(folderID)" label="\(folderID)" path="\(xml(me.folder))" type="sendreceive" rescanIntervalS="0" fsWatcherEnabled="false" fsWatcherDelayS="10" ignorePerms="false" autoNormalize="true">
                    <device id="\(me.deviceID)" introducedBy=""></device>
                    <device id="\(peer.deviceID)" introducedBy=""></device>
                    <maxConflicts>10</maxConflicts>
                    <markerName>.stfolder</markerName>
                </folder>
                <device id="\(me.deviceID)" name="\(me.name)" compression="metadata" introducer="false">
                    <address>dynamic</address>
                </device>
                <device id="\(peer.deviceID)" name="\(peer.name)" compression="metadata" introducer="false">
                    <address>\(address)</address>
                </device>
                <gui enabled="true" tls="false" debugging="false">
                    <address>127.0.0.1:\(me.guiPort)</address>
                    <apikey>\(me.apiKey)</apikey>
                </gui>
                <options>
                    <listenAddress>tcp://127.0.0.1:\(me.listenPort)</listenAddress>
                    <globalAnnounceEnabled>false</globalAnnounceEnabled>
                    <localAnnounceEnabled>false</localAnnounceEnabled>
                    <relaysEnabled>false</relaysEnabled>
                    <natEnabled>false</natEnabled>
                    <startBrowser>false</startBrowser>
                    <urAccepted>-1</urAccepted>
                    <autoUpgradeIntervalH>0</autoUpgradeIntervalH>
                    <crashReportingEnabled>false</crashReportingEnabled>
                    <announceLANAddresses>false</announceLANAddresses>
                    <reconnectionIntervalS>5</reconnectionIntervalS>
                    <restartOnWakeup>false</restartOnWakeup>
                </options>
            </configuration>

            """
        try Data(config.utf8).write(to: URL(fileURLWithPath: me.home + "/config.xml"), options: .atomic)
        chmod(me.home + "/config.xml", 0o600)
    }

    /// Starts `me` (its output into its log), under `setpriv --pdeathsig KILL` so it cannot
    /// outlive the test process.
    static func launch(_ me: Instance) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = [
            "--pdeathsig", "KILL", "--", program, "serve", "--home=" + me.home, "--no-browser", "--no-restart",
        ]
        process.environment = Self.environment(me.home)
        process.currentDirectoryURL = URL(fileURLWithPath: me.home)
        let log = me.home + "/syncthing.log"
        FileManager.default.createFile(atPath: log, contents: nil, attributes: [.posixPermissions: 0o600])
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try handle.close()
        me.process = process
    }

    // MARK: - Waiting

    func connected(_ me: Instance, to other: Instance) throws -> Bool {
        let connections = try me.get("/rest/system/connections")["connections"] as? [String: Any]
        return (connections?[other.deviceID] as? [String: Any])?["connected"] as? Bool == true
    }

    func waitConnected(within timeout: TimeInterval) throws {
        let started = Date()
        try waitUntil("the two devices connect", within: timeout) {
            try self.connected(self.a, to: self.b) && self.connected(self.b, to: self.a)
        }
        timings.append(("connect", Date().timeIntervalSince(started)))
    }

    /// Polls `condition` every 50 ms until it holds; past `timeout`, throws with both logs' tails.
    /// An instance that has exited fails at once.
    func waitUntil(_ what: String, within timeout: TimeInterval, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        var lastError: Error?
        while true {
            for instance in [a, b] where instance.process?.isRunning == false {
                throw Failure(
                    "syncthing \(instance.name) exited (status \(instance.process?.terminationStatus ?? -1)) while waiting for \(what):\n"
                        + instance.logTail())
            }
            do {
                if try condition() { return }
            } catch {
                lastError = error
            }
            if Date() > deadline {
                throw Failure(
                    "\(what): not within \(Int(timeout)) s\(lastError.map { " (\($0))" } ?? "")\n--- a:\n\(a.logTail())\n--- b:\n\(b.logTail())"
                )
            }
            usleep(50_000)
        }
    }

    static func number(_ value: Any?) -> Double? {
        (value as? NSNumber)?.doubleValue ?? (value as? Double) ?? (value as? Int).map(Double.init)
    }
}
