import EZCairo
/// The values a chart draws: categories (the band axis, the slices, the rows) and series of
/// integer values aligned with them (minor units, counts, or tenths of a percent).
package struct ChartData: Sendable, Hashable {
    /// The category labels, in display order. A label may hold a line break ("Jan\n2026").
    package var categories: [String]
    /// The series; each has one value per category (nil: no value).
    package var series: [Series]
    /// A colour per category, for slices and status-coloured rows; nil: series colours.
    package var pointColors: [Color]?
    /// A text per category written beside the row or slice (e.g. "420 € of 500 € · 84%").
    package var pointLabels: [String]?
    /// A target per category for ``Mark/progress`` (the full track).
    package var targets: [Int64]?
    /// A marker per category for ``Mark/progress`` (e.g. where spending should be by now).
    package var markers: [Int64?]?
    /// What the markers mean, written once under the rows ("expected by today").
    package var markerCaption: String?

    /// Data with the given parts.
    package init(categories: [String], series: [Series], pointColors: [Color]? = nil, pointLabels: [String]? = nil,
                targets: [Int64]? = nil, markers: [Int64?]? = nil, markerCaption: String? = nil) {
        self.categories = categories; self.series = series; self.pointColors = pointColors
        self.pointLabels = pointLabels; self.targets = targets; self.markers = markers
        self.markerCaption = markerCaption
    }
}

/// One named row of values with its look.
package struct Series: Sendable, Hashable {
    /// The name shown in the legend.
    package var name: String
    /// One value per category.
    package var values: [Int64?]
    /// The colour of the line or bars.
    package var color: Color
    /// Drawn dashed (e.g. a moving average).
    package var dashed: Bool
    /// Drawn thinner and behind the others.
    package var secondary: Bool

    /// A series.
    package init(name: String, values: [Int64?], color: Color, dashed: Bool = false, secondary: Bool = false) {
        self.name = name; self.values = values; self.color = color; self.dashed = dashed; self.secondary = secondary
    }
}
