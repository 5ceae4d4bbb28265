/// A chart with the file name it is saved under (`categories.png`, `trend.png`, …).
public struct NamedChart: Sendable {
    /// The PNG's file name inside the report's `charts/` folder.
    public var fileName: String
    /// The chart.
    public var chart: Chart
    /// A chart to be saved as `fileName`.
    public init(fileName: String, chart: Chart) { self.fileName = fileName; self.chart = chart }
}
