/// The engine's version, printed by `--version` and recorded in every report's provenance.
enum EngineVersion {
    static let current = "0.1.0"
}
