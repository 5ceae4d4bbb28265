extension Translator {
    /// A category's name as a renderer shows it: the ledger's own name, or, for the slice that
    /// folds `folded` small categories together, "Other (3 categories)" in the reader's language.
    package func categoryName(_ name: String, folded: Int) -> String {
        guard folded > 0 else { return name }
        let tr = self
        return tr.plural("Other ({count} category)", "Other ({count} categories)", count: folded)
    }
}
