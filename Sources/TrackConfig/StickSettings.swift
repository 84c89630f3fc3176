/// The keys of the `stick:` section: which USB sticks take the reports (docs/install.md, "Taking the logs home").
enum StickSettings {
    static let all: [Setting<StickConfiguration>] = [
        .choice("accept", \.accept,
                "which sticks get the reports: marked (a trackd folder at the top, or the label) or any"),
        .parsed("label", \.labelSetting, "the filesystem label that marks a stick for the reports") { text in
            guard !text.isEmpty, text.count <= 16, !text.contains(where: { $0.isNewline || $0 == "/" }) else {
                return .failure(ExpectedValue("a filesystem label: 1 to 16 characters, no '/'"))
            }
            return .success(text)
        },
    ]

    static var keys: [String] { all.map(\.key) }
}

extension StickConfiguration {
    /// `label` as an optional setting (the section's parser sets optionals).
    var labelSetting: String? {
        get { label }
        set { label = newValue ?? "TRACKD" }
    }
}
