import TrackctlTexts

/// `said` in the language trackctl speaks now (`Speech`): every sentence trackctl prints to a person goes through
/// here, written in English as a literal (`t("trip \(number) stopped")`), so that TrackctlTextsTests finds it and
/// checks its German and Estonian.
func t(_ said: Said) -> String {
    said.text(in: Speech.language)
}
