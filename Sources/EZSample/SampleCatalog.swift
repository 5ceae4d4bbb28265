// The fixed vocabulary of the sample ledger: where users live, what they are called, what they
// spend on and where. Arrays only (never dictionaries or sets), so every draw is reproducible.

/// A place sample users live in: time zone, locale, report currency, and typical names.
struct SampleRegion {
    var zone: String
    var locale: String
    var currency: String
    /// Relative share of users.
    var weight: Int
    /// (as written in a username, as written in an e-mail address).
    var firstNames: [(String, String)]
    var lastNames: [(String, String)]
    /// How a family is called, `%` standing for the surname.
    var familyPattern: String
    /// Whether some users here name their categories in Italian.
    var italianCategories: Bool = false
}

enum SampleCatalog {
    static let regions: [SampleRegion] = [
        SampleRegion(zone: "Europe/Rome", locale: "it_IT", currency: "EUR", weight: 20,
                     firstNames: ascii(["giulia", "marco", "francesca", "luca", "chiara", "matteo", "sara", "andrea", "elena", "nicolò"]),
                     lastNames: ascii(["rossi", "bianchi", "esposito", "romano", "colombo", "ricci", "marino", "greco", "bruno", "gallo"]),
                     familyPattern: "Famiglia %", italianCategories: true),
        SampleRegion(zone: "Europe/Berlin", locale: "de_DE", currency: "EUR", weight: 12,
                     firstNames: ascii(["jürgen", "anna", "lukas", "lea", "felix", "marie", "jonas", "sophie"]),
                     lastNames: ascii(["müller", "schmidt", "schneider", "fischer", "weber", "becker", "wagner"]),
                     familyPattern: "Familie %"),
        SampleRegion(zone: "Europe/Paris", locale: "fr_FR", currency: "EUR", weight: 9,
                     firstNames: ascii(["élodie", "louis", "camille", "hugo", "chloé", "léo", "manon"]),
                     lastNames: ascii(["martin", "bernard", "dubois", "thomas", "lefèvre", "moreau", "laurent"]),
                     familyPattern: "Famille %"),
        SampleRegion(zone: "Europe/Madrid", locale: "es_ES", currency: "EUR", weight: 4,
                     firstNames: ascii(["lucía", "hugo", "martina", "pablo", "sofía", "álvaro"]),
                     lastNames: ascii(["garcía", "fernández", "lópez", "martínez", "sánchez"]),
                     familyPattern: "Familia %"),
        SampleRegion(zone: "Europe/London", locale: "en_GB", currency: "GBP", weight: 13,
                     firstNames: ascii(["oliver", "amelia", "harry", "isla", "jack", "olivia", "george", "emily"]),
                     lastNames: ascii(["smith", "jones", "taylor", "brown", "williams", "wilson", "evans"]),
                     familyPattern: "The % family"),
        SampleRegion(zone: "America/New_York", locale: "en_US", currency: "USD", weight: 12,
                     firstNames: ascii(["james", "emma", "michael", "ava", "william", "mia", "ethan", "abigail"]),
                     lastNames: ascii(["johnson", "davis", "miller", "garcia", "rodriguez", "anderson", "clark"]),
                     familyPattern: "The % family"),
        SampleRegion(zone: "America/Los_Angeles", locale: "en_US", currency: "USD", weight: 8,
                     firstNames: ascii(["noah", "sophia", "liam", "isabella", "mason", "harper"]),
                     lastNames: ascii(["lee", "walker", "hall", "young", "king", "nguyen"]),
                     familyPattern: "The % family"),
        SampleRegion(zone: "America/Toronto", locale: "en_CA", currency: "USD", weight: 4,
                     firstNames: ascii(["logan", "charlotte", "benjamin", "chloe", "owen"]),
                     lastNames: ascii(["tremblay", "roy", "macdonald", "campbell", "gagnon"]),
                     familyPattern: "The % family"),
        SampleRegion(zone: "Europe/Zurich", locale: "de_CH", currency: "CHF", weight: 5,
                     firstNames: ascii(["noah", "mia", "luca", "lina", "leon", "elena"]),
                     lastNames: ascii(["meier", "keller", "huber", "frei", "brunner"]),
                     familyPattern: "Familie %"),
        SampleRegion(zone: "Asia/Tokyo", locale: "ja_JP", currency: "JPY", weight: 6,
                     firstNames: ascii(["haruto", "yui", "sota", "hina", "ren", "aoi"]),
                     lastNames: ascii(["sato", "suzuki", "takahashi", "tanaka", "watanabe", "yamamoto"]),
                     familyPattern: "% family"),
        SampleRegion(zone: "Australia/Sydney", locale: "en_AU", currency: "USD", weight: 4,
                     firstNames: ascii(["jack", "charlotte", "william", "olivia", "thomas"]),
                     lastNames: ascii(["smith", "nguyen", "kelly", "white", "martin"]),
                     familyPattern: "The % family"),
    ]

    /// Usernames that exercise non-ASCII text and hostile input downstream (file names, CSV, SQL).
    /// They go to the first adult, live, non-admin users, so even a 10-user sample has them.
    static let specialUsernames = [
        "zoë", "josé.müller", "山田", "../../etc", "=HYPERLINK(\"http://x.test\",\"x\")", "robert'); DROP TABLE users;--",
    ]

    /// (display, e-mail) pairs: the e-mail form folds the few accented letters to ASCII.
    private static func ascii(_ names: [String]) -> [(String, String)] {
        names.map { name in
            var out = ""
            for ch in name {
                switch ch {
                case "à", "á": out += "a"
                case "è", "é": out += "e"
                case "ì", "í": out += "i"
                case "ò", "ó": out += "o"
                case "ù", "ú": out += "u"
                case "ä": out += "ae"
                case "ö": out += "oe"
                case "ü": out += "ue"
                case "ë": out += "e"
                default: out.append(ch)
                }
            }
            return (name, out)
        }
    }

    static let bookNames = ["Household", "Casa", "Family budget", "My money", "Personal", "Budget 2025", "Spese"]
    static let groupNames: [(kind: SampleGroupKind, names: [String])] = [
        (.flat, ["Flat via Roma 12", "Baker Street flat", "Flatmates", "Casa Navigli", "WG Kreuzberg", "Apartment 4B"]),
        (.friends, ["Friday dinners", "Book club", "Five-a-side", "Climbing crew", "Board games", "Brunch gang"]),
        (.trip, ["Lisbon weekend", "Ski trip", "Road trip", "Summer in Greece", "Tokyo trip", "Wedding weekend", "Camping"]),
    ]
    static let goalNames = ["Emergency fund", "Summer holiday", "New car", "Wedding", "New laptop", "House deposit", "Bike"]
    static let passwordAlphabet = Array("0123456789abcdef".utf8)
}

/// What a group of friends is for; it shapes when and on what they spend.
enum SampleGroupKind { case flat, friends, trip }
