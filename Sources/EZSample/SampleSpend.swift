/// A kind of category a sample user may have, with its names, colour and typical shops.
enum SampleSpend: Int, CaseIterable {
    case groceries, eatingOut, transport, housing, subscriptions, travel, salary
    case utilities, health, shopping, entertainment, gifts, education, pets, kids
    case allowance, snacks, games, school, others

    /// The categories every adult has (8, 'Others' last).
    static let adultCore: [SampleSpend] = [.groceries, .eatingOut, .transport, .housing, .subscriptions, .travel, .salary]
    /// Optional adult categories (a user has 0–6 of them).
    static let adultOptional: [SampleSpend] = [.utilities, .health, .shopping, .entertainment, .gifts, .education, .pets]
    /// A child's categories ('Others' added last).
    static let child: [SampleSpend] = [.allowance, .snacks, .games, .transport, .eatingOut, .shopping, .school, .gifts]

    /// The English name (what most users call it; group shares match names exactly).
    var english: String {
        ["Groceries", "Eating out", "Transport", "Housing", "Subscriptions", "Travel", "Salary",
         "Utilities", "Health", "Shopping", "Entertainment", "Gifts", "Education", "Pets", "Kids",
         "Allowance", "Snacks", "Games", "School", "Others"][rawValue]
    }

    /// The Italian name some it_IT users choose ('Others' stays 'Others', as the contract requires).
    var italian: String {
        ["Spesa", "Ristoranti", "Trasporti", "Casa", "Abbonamenti", "Viaggi", "Stipendio",
         "Bollette", "Salute", "Shopping", "Svago", "Regali", "Istruzione", "Animali", "Figli",
         "Paghetta", "Merende", "Giochi", "Scuola", "Others"][rawValue]
    }

    /// `#RRGGBB`.
    var color: String {
        ["#4CAF50", "#FF7043", "#42A5F5", "#8D6E63", "#AB47BC", "#26C6DA", "#2E7D32",
         "#FFCA28", "#EF5350", "#EC407A", "#7E57C2", "#D81B60", "#5C6BC0", "#A1887F", "#FFA726",
         "#66BB6A", "#FFB74D", "#29B6F6", "#3949AB", "#9E9E9E"][rawValue]
    }

    /// Typical descriptions of a row in this category.
    var descriptions: [String] {
        switch self {
        case .groceries: return ["Esselunga", "Coop", "Lidl", "Carrefour", "Tesco", "Aldi", "Rewe", "Whole Foods", "Migros", "Aeon", "Market"]
        case .eatingOut: return ["Pizzeria", "Sushi bar", "Café", "Burger place", "Trattoria", "Lunch", "Dinner out", "Coffee", "Ramen"]
        case .transport: return ["Metro ticket", "Bus", "Taxi", "Uber", "Fuel", "Train", "Parking", "Bike share"]
        case .housing: return ["Rent"]
        case .subscriptions: return ["Netflix", "Spotify", "Gym"]
        case .travel: return ["Hotel", "Museum", "Taxi", "Dinner", "Souvenirs", "Train tickets", "Tour", "Lunch"]
        case .salary: return ["Salary"]
        case .utilities: return ["Electricity", "Gas", "Water", "Internet", "Phone"]
        case .health: return ["Pharmacy", "Dentist", "Doctor", "Optician"]
        case .shopping: return ["Clothes", "Shoes", "Electronics", "Books", "Home goods", "Amazon"]
        case .entertainment: return ["Cinema", "Concert", "Theatre", "Video game", "Museum"]
        case .gifts: return ["Birthday present", "Flowers", "Wedding gift", "Christmas presents"]
        case .education: return ["Online course", "Books", "Language school"]
        case .pets: return ["Vet", "Pet food", "Grooming"]
        case .kids: return ["Allowance"]
        case .allowance: return ["Allowance"]
        case .snacks: return ["Ice cream", "Snacks", "Candy"]
        case .games: return ["Game", "Comics", "Stickers", "App purchase"]
        case .school: return ["School trip", "Notebooks", "Canteen"]
        case .others: return ["Misc", "ATM fee", "Post office", "Donation"]
        }
    }
}
