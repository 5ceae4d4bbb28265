/// A chart with the file name it is saved under (`categories.png`, `trend.png`, …).
package struct NamedChart: Sendable {
    /// The PNG's file name inside the report's `charts/` folder.
    package var fileName: String
    /// The chart.
    package var chart: Chart
    /// A chart to be saved as `fileName`.
    package init(fileName: String, chart: Chart) { self.fileName = fileName; self.chart = chart }
}
