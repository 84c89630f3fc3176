import TrackCore

/// The keys of the `privacy:` section: what trackd keeps of where the car went, and for how long (docs/privacy.md).
enum PrivacySettings {
    static let all: [Setting<PrivacyPolicy>] = [
        .choice("private_routes", \.privateRoutes,
                "erase: a private trip stores no route, a trip reclassified private loses it; keep: private trips keep theirs"),
        .integer("retention_years", \.retention.years, 0...30,
                 "business trips are kept this many years after the end of their year; erase --all refuses them before"),
        .integer("erase_routes_after_months", \.eraseRoutesAfterMonths, 0...600,
                 "routes of trips older than this many months are erased automatically; 0 never"),
    ]

    static var keys: [String] { all.map(\.key) }
}
