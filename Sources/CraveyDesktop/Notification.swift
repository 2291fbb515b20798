internal import CDBus
import FoundationEssentials
import Glibc

/// A desktop notification (org.freedesktop.Notifications on the user's session bus): what a
/// reminder shows. The session bus is a local socket; nothing leaves the machine.
public enum DesktopNotification {
    /// Why a notification could not be shown, with the bus's own message.
    public struct Failure: Error, CustomStringConvertible {
        public enum Kind: Sendable { case noSessionBus, noNotificationService, other }
        public let kind: Kind
        public let message: String
        public var description: String {
            switch kind {
            case .noSessionBus: return "no session bus to show a notification on (\(message))"
            case .noNotificationService: return "no notification service on the session bus (\(message))"
            case .other: return "the notification could not be shown (\(message))"
            }
        }
    }

    /// Shows `summary` and `body` for `app`; returns the id the notification server gave it.
    @discardableResult
    public static func show(app: String, summary: String, body: String, expireMilliseconds: Int32 = -1) throws -> UInt32
    {
        // sd-bus is opened first, so a missing libsystemd is this error, not a call into nothing.
        guard CDBus_load() == 0 else { throw Failure(kind: .other, message: String(cString: CDBus_load_message())) }
        var id: UInt32 = 0
        var message = [CChar](repeating: 0, count: 512)
        let err = CDBus_notify(app, summary, body, expireMilliseconds, 5_000, &id, &message, message.count)
        guard err == 0 else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let kind: Failure.Kind = err == -ENOTCONN ? .noSessionBus : err == -ESRCH ? .noNotificationService : .other
            throw Failure(kind: kind, message: text.isEmpty ? String(cString: strerror(-err)) : text)
        }
        return id
    }
}
