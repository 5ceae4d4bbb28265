/// The engine's version, printed by `--version` and recorded in every report's provenance and
/// fingerprint: a new version re-renders every user on the next run.
package enum EngineVersion {
    package static let current = "0.1.0"
}
