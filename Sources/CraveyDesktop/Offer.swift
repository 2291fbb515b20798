internal import CDBus
import FoundationEssentials
import Glibc

/// A desktop notification that offers something to do (a "Ride it out" button) and waits, a
/// while at most, for the person's answer: one connection to the session bus shows it and hears
/// the answer, so nothing is missed between the two. Where the server has no actions, it is shown
/// and not waited for.
public final class DesktopOffer {
    private var offer: OpaquePointer?
    /// The server's capabilities (`actions`, `body-markup`, …).
    public let capabilities: Set<String>

    /// What came of a wait.
    public enum Answer: Equatable, Sendable {
        /// The action with this key was chosen; `token` is the activation token sent with it.
        case chosen(action: String, token: String?)
        /// The notification was closed (dismissed, or expired) without an action.
        case closed
        /// No answer within the wait, or the wait was stopped (the notification is withdrawn), or
        /// the bus went away.
        case noAnswer
    }

    /// Connects to the session bus and asks the notification server what it can do.
    public init() throws {
        guard CDBus_load() == 0 else {
            throw DesktopNotification.Failure(kind: .other, message: String(cString: CDBus_load_message()))
        }
        var message = [CChar](repeating: 0, count: 512)
        var opened: OpaquePointer?
        let err = CDBus_offer_open(&opened, &message, message.count)
        guard err == 0, let opened else { throw Self.failure(err, message) }
        offer = opened
        var list = [CChar](repeating: 0, count: 2048)
        let asked = CDBus_offer_capabilities(opened, 5_000, &list, list.count, &message, message.count)
        let failure = asked == 0 ? nil : Self.failure(asked, message)
        if let failure, failure.kind != .other {
            CDBus_offer_close(opened, 0)
            offer = nil
            throw failure
        }
        // A server that does not say what it can do is taken to show text alone.
        capabilities = failure == nil ? Set(Self.text(list).split(separator: "\n").map(String.init)) : []
    }

    deinit { close() }

    /// Whether the server shows buttons (and sends back the one chosen).
    public var hasActions: Bool { capabilities.contains("actions") }

    /// `text` as the body of a notification: escaped where the server reads markup.
    public func body(_ text: String) -> String {
        guard capabilities.contains("body-markup") else { return text }
        return text.reduce(into: "") { escaped, character in
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            default: escaped.append(character)
            }
        }
    }

    /// Shows the notification with `actions` (key and label; ignored by a server without actions).
    /// It never expires by itself (a server's default timeout would end the offer in seconds):
    /// `wait` withdraws it when no answer comes.
    @discardableResult
    public func show(app: String, summary: String, body: String, actions: [(key: String, label: String)]) throws
        -> UInt32
    {
        guard let offer else { throw DesktopNotification.Failure(kind: .other, message: "the offer was closed") }
        let flat = hasActions ? actions.flatMap { [$0.key, $0.label] } : []
        let strings = flat.map { strdup($0) }
        defer { strings.forEach { free($0) } }
        var pointers = strings.map { UnsafePointer($0) }
        var id: UInt32 = 0
        var message = [CChar](repeating: 0, count: 512)
        let err = pointers.withUnsafeMutableBufferPointer { list in
            CDBus_offer_notify(
                offer, app, app, summary, body, list.baseAddress, list.count, 0, 5_000, &id, &message,
                message.count)
        }
        guard err == 0 else { throw Self.failure(err, message) }
        return id
    }

    /// Waits at most `seconds` for the person's answer to the notification shown, or until
    /// `stopRequested` (asked four times a second) says the wait is to end (a stop signal). An
    /// offer not answered is withdrawn: no button is left on the screen that does nothing.
    public func wait(seconds: Double, stopRequested: () -> Bool = { false }) -> Answer {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        var action = [CChar](repeating: 0, count: 128), token = [CChar](repeating: 0, count: 256)
        while let offer, !stopRequested(), ContinuousClock.now < deadline {
            let left = deadline - ContinuousClock.now
            let slice = min(
                250, Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            switch CDBus_offer_wait(offer, max(1, slice), &action, action.count, &token, token.count) {
            case 1:
                let given = Self.text(token)
                return .chosen(action: Self.text(action), token: given.isEmpty ? nil : given)
            case 0: return .closed
            case -ETIMEDOUT: continue
            default: return .noAnswer  // the bus went away
            }
        }
        if let offer { CDBus_offer_close(offer, 1) }
        offer = nil
        return .noAnswer
    }

    /// Leaves the bus (the notification stays until the person or the server closes it).
    public func close() {
        if let offer { CDBus_offer_close(offer, 0) }
        offer = nil
    }

    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func failure(_ err: Int32, _ message: [CChar]) -> DesktopNotification.Failure {
        let text = Self.text(message)
        let kind: DesktopNotification.Failure.Kind =
            err == -ENOTCONN ? .noSessionBus : err == -ESRCH ? .noNotificationService : .other
        return DesktopNotification.Failure(kind: kind, message: text.isEmpty ? String(cString: strerror(-err)) : text)
    }
}
