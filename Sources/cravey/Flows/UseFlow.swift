import CraveyLibrary
import CraveyTracker
import Foundation

/// Logging a use: the form (on a terminal with nothing typed), the offer to link the recent
/// craving it may have followed, the log. What `cravey use` and home's `u` both run.
enum UseFlow {
    /// The form, the offer to link, the log: the use logged (the caller says so,
    /// `LogWords.saved`), or nil when the form was closed and nothing was logged.
    static func interactively(in session: Session) throws -> Usage? {
        guard let draft = try LogForm.use() else { return nil }
        return try log(draft, in: session.library, afterCraving: nil, offeringLink: true, now: session.now())
    }

    /// Logs `draft` after the craving named `afterCraving` (an id or 'last'), or else, when
    /// `offeringLink`, after a recent craving with no use yet if one key says so.
    static func log(
        _ draft: Tracker.UsageDraft, in lib: Library, afterCraving: String?, offeringLink: Bool, now: Date
    ) throws -> Usage {
        let tracker = Tracker(library: lib)
        var draft = draft
        if let afterCraving {
            draft.cravingId = try tracker.craving(named: afterCraving, before: draft.time.instant).id
        } else if offeringLink, let recent = try tracker.unlinkedCraving(before: draft.time.instant),
            LogForm.offerLink(to: recent)
        {
            draft.cravingId = recent.id
        }
        return try tracker.logUse(draft, now: now)
    }
}
