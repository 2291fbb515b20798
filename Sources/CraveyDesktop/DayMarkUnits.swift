/// The evening question's systemd user units (a `UserTimer`, `cravey-today`): a timer that runs
/// `today remind run` once a day at a time of day, which asks "Mark today?" when the day is
/// neither marked nor a day of use yet.
extension UserTimer {
    public static let dayMarkName = "cravey-today"

    /// The evening question's units of the person whose environment is `env`.
    public static func dayMark(environment env: [String: String], systemctl: @escaping ([String]) -> Int32)
        -> UserTimer
    {
        UserTimer(name: dayMarkName, environment: env, systemctl: systemctl)
    }

    static func dayMarkService(executable: String, library: String, discreet: Bool) -> String {
        service(
            description: "cravey: the evening question, Mark today?", run: "today remind run", executable: executable,
            library: library, discreet: discreet, answer: "The question's answer",
            goesOn: "The use form its \"I used\" opens stays open when the run ends.")
    }

    /// Writes the evening question's units for `hour`:`minute` and enables the timer; a path
    /// with a line break or another control character is refused before anything is written.
    public func installDayMark(hour: Int, minute: Int, executable: String, library: String, discreet: Bool) throws {
        try Self.refuseControlCharacters(executable: executable, library: library, installing: "the evening question")
        try install(
            service: Self.dayMarkService(executable: executable, library: library, discreet: discreet),
            timer: Self.timer(
                description: "cravey: the evening question, at \(Self.clock(hour, minute))", hour: hour,
                minute: minute, service: serviceName),
            installing: "the evening question")
    }
}
