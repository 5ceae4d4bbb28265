import EZCore

extension CivilDate {
    /// The date as an Excel serial day number (1900 date system): 1970-01-01 is 25569.
    ///
    /// Valid for dates after 1900-02-28, where Excel's phantom 1900-02-29 no longer shifts days.
    var excelSerial: Double { Double(Int(dayNumber) + 25_569) }
}

extension Int64 {
    /// Minor units as major units (`1250` cents → `12.5`), for display cells only: never for a sum.
    /// Dividing two exactly representable integers gives the double nearest the decimal value.
    @inline(__always)
    func majorUnits(_ currency: Currency) -> Double { Double(self) / Double(currency.minorPerMajor) }
}
