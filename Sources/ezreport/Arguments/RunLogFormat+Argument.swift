import ArgumentParser
import EZBatch

/// `--log-format text|json`.
extension RunLog.Format: ExpressibleByArgument {}
