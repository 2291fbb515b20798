import CraveyLibrary

/// Editing a recording's details on the Edit Recording form: what `cravey edit ID` on a terminal
/// and the recordings screen's `e` both run.
enum EditFlow {
    /// The form, pre-filled, saved through the same library edit as the flags: the recording as
    /// saved, or nil when the form was closed. A check-in is refused before the form opens (it is
    /// kept as it was saved).
    static func interactively(_ recording: Recording, in lib: Library) throws -> Recording? {
        try lib.refuseChanging(recording)
        return RecordingForm.run(RecordingFormState(recording)) { form in
            try lib.edit(
                recording, title: form.title, notes: .some(form.notes), purpose: .some(form.purpose),
                forTriggers: form.forTriggers)
        }
    }
}
