#if canImport(XCTest)
    import Foundation
    import XCTest

    /// An end-to-end test that runs programs beside cravey for its length (a session bus, a
    /// notification server, a display): started with `start`, their output in a file read with
    /// `waitForFile`, and ended after the test.
    open class BackgroundTestCase: CommandTestCase {
        public var processes: [Process] = []

        open override func tearDownWithError() throws {
            for process in processes.reversed() where process.isRunning {
                process.terminate()
                process.waitUntilExit()
            }
            processes = []
            try super.tearDownWithError()
        }

        /// Starts `executable` in the background (the test's environment with `environment` over
        /// it), its standard output into the file `output`.
        @discardableResult
        public func start(
            _ executable: String, _ arguments: [String], environment: [String: String] = [:], output: String
        ) throws -> Process {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            FileManager.default.createFile(atPath: output, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
            process.standardError = FileHandle.nullDevice
            try process.run()
            processes.append(process)
            return process
        }

        /// A private session bus in the test's folder; its address. It starts no service of its
        /// own (a session bus would start whichever notification server is installed, dunst say,
        /// the moment something asks for one): on it is only what the test starts.
        public func startSessionBus() throws -> String {
            let socket = base + "/bus"
            let address = "unix:path=\(socket)"
            let config = base + "/bus.conf"
            try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>\(address)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>

            """.write(toFile: config, atomically: true, encoding: .utf8)
            try start(
                "/usr/bin/dbus-daemon", ["--config-file=\(config)", "--nofork", "--nopidfile"],
                output: base + "/bus.out")
            for _ in 0..<100 where !FileManager.default.fileExists(atPath: socket) { usleep(50_000) }
            return address
        }

        /// A notification server on the bus at `address`: it owns org.freedesktop.Notifications,
        /// lists `capabilities`, answers Notify with id 7 and writes each call to the file it
        /// returns (`NOTIFY app | summary | body | actions | hints`, `CLOSE id`). With `answer`, it
        /// chooses that action 0.2 s after showing, sending an activation token first as servers do
        /// (`closed`: the person dismissed it instead); `token` nil: a server that sends none.
        public func startNotificationServer(
            at address: String, capabilities: [String] = ["body"], answer: String? = nil,
            token: String? = "token-from-the-server"
        )
            throws -> String
        {
            let server = base + "/notifications-\(processes.count).py"
            let output = base + "/notifications-\(processes.count).out"
            try """
            from gi.repository import Gio, GLib
            XML = '''<node><interface name="org.freedesktop.Notifications">
              <method name="GetCapabilities"><arg type="as" direction="out"/></method>
              <method name="Notify">
              <arg type="s" direction="in"/><arg type="u" direction="in"/><arg type="s" direction="in"/>
              <arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="as" direction="in"/>
              <arg type="a{sv}" direction="in"/><arg type="i" direction="in"/><arg type="u" direction="out"/></method>
              <method name="CloseNotification"><arg type="u" direction="in"/></method>
              <signal name="ActionInvoked"><arg type="u"/><arg type="s"/></signal>
              <signal name="ActivationToken"><arg type="u"/><arg type="s"/></signal>
              <signal name="NotificationClosed"><arg type="u"/><arg type="u"/></signal>
            </interface></node>'''
            CAPS = [\(capabilities.map { "'\($0)'" }.joined(separator: ", "))]
            ANSWER = \(answer.map { "'\($0)'" } ?? "None")
            TOKEN = \(token.map { "'\($0)'" } ?? "None")
            def emit(conn, name, args):
                conn.emit_signal(None, "/org/freedesktop/Notifications", "org.freedesktop.Notifications", name, args)
            def answer(conn):
                if ANSWER == "closed":
                    emit(conn, "NotificationClosed", GLib.Variant("(uu)", (7, 2)))
                    return False
                if TOKEN:
                    emit(conn, "ActivationToken", GLib.Variant("(us)", (7, TOKEN)))
                emit(conn, "ActionInvoked", GLib.Variant("(us)", (7, ANSWER)))
                return False
            def call(conn, sender, path, iface, method, params, invocation):
                if method == "GetCapabilities":
                    invocation.return_value(GLib.Variant("(as)", (CAPS,)))
                elif method == "Notify":
                    print("NOTIFY", params[0], "|", params[3], "|", params[4], "|", list(params[5]), "|", dict(params[6]), flush=True)
                    invocation.return_value(GLib.Variant("(u)", (7,)))
                    if ANSWER:
                        GLib.timeout_add(200, answer, conn)
                else:
                    print("CLOSE", params[0], flush=True)
                    invocation.return_value(None)
            def acquired(conn, name):
                conn.register_object("/org/freedesktop/Notifications", Gio.DBusNodeInfo.new_for_xml(XML).interfaces[0], call, None, None)
            def owned(conn, name):
                print("READY", flush=True)
            Gio.bus_own_name(Gio.BusType.SESSION, "org.freedesktop.Notifications", 0, acquired, owned, None)
            GLib.MainLoop().run()
            """.write(toFile: server, atomically: true, encoding: .utf8)
            try start("/usr/bin/python3", [server], environment: ["DBUS_SESSION_BUS_ADDRESS": address], output: output)
            XCTAssertTrue(
                waitForFile(output, containing: "READY").contains("READY"), "the notification server is on the bus")
            return output
        }

        /// The file at `path` once it holds `text` (or as it is after `timeout` seconds), read as
        /// Latin-1 so that a terminal's log with any bytes in it is read too.
        public func waitForFile(_ path: String, containing text: String, timeout: TimeInterval = 10) -> String {
            let deadline = Date() + timeout
            var last = ""
            while Date() < deadline {
                last = (try? String(contentsOfFile: path, encoding: .isoLatin1)) ?? ""
                if last.contains(text) { return last }
                usleep(50_000)
            }
            return last
        }
    }
#endif
