/// Datasets modelled on the sources' sample projects. The data is generated here from a fixed
/// seed: the shapes (counts, sizes, lengths) follow the samples, the words are the project's own.
public extension Dataset {
    /// GlitchyTable's list: `count` rows whose text is the row number, read from the slow model, 44 pt rows.
    static func glitchy(_ count: Int) -> Dataset {
        let rows = (0..<count).map { DatasetRow(id: "row-\($0)", text: "\($0)") }
        return Dataset(
            id: "glitchy-\(count)", name: "GlitchyTable, \(count) rows",
            summary:
                "\(count) numbered rows, 44 pt high; each row's text comes from a model that takes the latency setting to answer (GlitchyTable).",
            items: .rows(rows), textSource: .model, requiresInitialFetch: false,
            presentation: Presentation(layout: .table(.fixed(height: 44)), cellDesign: .plain, imageSide: 0))
    }

    /// Capital One's users: 1 000 usernames with roles and 128×128 px avatars, 64 pt rows.
    static let users1000: Dataset = {
        let syllables = [
            "ka", "lo", "mi", "ren", "to", "sa", "vi", "dor", "el", "quin", "bar", "ny", "ush", "fe", "ta", "gor",
        ]
        let roles = ["Admin", "Owner", "User"]
        var random = SeededRandom(seed: 1_000)
        var rows: [DatasetRow] = []
        rows.reserveCapacity(1_000)
        for i in 0..<1_000 {
            // Usernames of 4 to 23 characters, mean about 12, as in the sample's data.
            let target = 4 + Int(random.next() % 9) + Int(random.next() % 8) + Int(random.next() % 5)
            var name = ""
            while name.count < target { name += syllables[Int(random.next() % UInt64(syllables.count))] }
            name = String(name.prefix(target))
            if random.next() % 3 == 0 { name = String(name.prefix(max(1, target - 2))) + String(i % 100) }
            rows.append(
                DatasetRow(
                    id: "user-\(i)", text: name, detail: roles[Int(random.next() % 3)],
                    imageURL: "avatars/\(i).jpg", imageWidth: 128, imageHeight: 128))
        }
        return Dataset(
            id: "users-1000", name: "Users, 1 000 rows",
            summary:
                "1 000 users (username, role, 128×128 px avatar) fetched as one JSON file, shown in 64 pt rows with a 44 pt avatar (Capital One's SmoothScrolling sample).",
            items: .rows(rows), textSource: .data, requiresInitialFetch: true,
            presentation: Presentation(layout: .table(.fixed(height: 64)), cellDesign: .plain, imageSide: 44))
    }()

    /// Digital Leaves' photos: 19 long texts (193–473 characters) with 1024 px photos, self-sizing rows.
    static let photos19: Dataset = {
        let words = [
            "the", "list", "keeps", "moving", "while", "each", "photo", "waits", "for", "its",
            "bytes", "and", "a", "label", "wraps", "over", "several", "lines", "so", "row",
            "heights", "differ", "from", "one", "item", "to", "next", "quiet", "harbour", "light",
        ]
        var rows: [DatasetRow] = []
        for i in 0..<19 {
            let length = 193 + (i * 157) % 281
            var text = ""
            var h = mix64(UInt64(19_000 + i))
            while text.count < length {
                text += (text.isEmpty ? "" : " ") + words[Int(h % UInt64(words.count))]
                h = mix64(h)
            }
            text = String(text.prefix(length - 1)) + "."
            let landscape = i % 3 != 0
            rows.append(
                DatasetRow(
                    id: "photo-\(i)", text: text, imageURL: "photos/\(i).jpg",
                    imageWidth: landscape ? 1024 : 768, imageHeight: landscape ? 768 : 1024))
        }
        return Dataset(
            id: "photos-19", name: "Photos, 19 items",
            summary:
                "19 items, each a long text (193–473 characters) and a photo 1024 px on its long side, in self-sizing rows with a 48 pt image (Digital Leaves' sample).",
            items: .rows(rows), textSource: .data, requiresInitialFetch: false,
            presentation: Presentation(layout: .table(.fromContent(TextMetrics())), cellDesign: .text, imageSide: 48))
    }()

    /// `count` synthetic rows (text 20–299 characters, 256 px images), stored as a seed only.
    static func synthetic(_ count: Int, seed: UInt64 = 42) -> Dataset {
        Dataset(
            id: "synthetic:\(count)", name: "Synthetic, \(count) rows",
            summary:
                "\(count) generated rows (text 20–299 characters, 256×256 px images) derived from a seed, in rows whose height follows their text; nothing is stored per row.",
            items: .synthetic(count: count, seed: seed, imageSide: 256), textSource: .data, requiresInitialFetch: false,
            presentation: Presentation(layout: .table(.fromContent(TextMetrics())), cellDesign: .text, imageSide: 44))
    }

    /// The built-in datasets by name (`synthetic:<count>` is parsed separately).
    static let builtInNames = ["glitchy-100", "glitchy-300", "users-1000", "photos-19", "synthetic:<count>"]

    /// A built-in dataset by name, or nil.
    static func builtIn(named name: String) -> Dataset? {
        switch name {
        case "glitchy-100": return glitchy(100)
        case "glitchy-300": return glitchy(300)
        case "users-1000": return users1000
        case "photos-19": return photos19
        default:
            if name.hasPrefix("synthetic:"), let n = Int(name.dropFirst("synthetic:".count)), n >= 1, n <= 10_000_000 {
                return synthetic(n)
            }
            return nil
        }
    }
}
