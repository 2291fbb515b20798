/// cravey's version and the commit it was built from, as `--version`, settings' ABOUT and
/// `settings --json` say it.
enum Version {
    static let text = "0.1.0 (build \(buildCommit))"
}
