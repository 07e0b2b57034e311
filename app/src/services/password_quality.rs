//! Whether a new password is good enough, beyond its length (OWASP ASVS 5.0 6.2.4 and 6.2.11,
//! NIST 800-63B 3.1.1.2): it must not be one of the 100,000 most common passwords, and the
//! `zxcvbn` estimator must rate it at least [`MIN_SCORE`] ("safely unguessable" against an
//! online attack and a slow-hash offline one).
//!
//! The list is `app/data/common-passwords/top-100k.txt.gz` (source and licence in the
//! `README.md` beside it): the 100,000 most frequent passwords of a 10-million-password
//! breach corpus, sorted, gzip-compressed, embedded in the binary and unpacked on first use.
//! The comparison ignores case, so `Password1` and `PASSWORD1` count as `password1`.
//!
//! Why a refusal happened is said with our own messages ([`Msg`]), mapped from zxcvbn's warning
//! and suggestions (never its English strings), so both languages get the same explanation.
//! Server only (the estimator's dictionaries would weigh down the browser bundle).

use crate::{domain::accounts, error::AppError, i18n::Msg};
use std::{io::Read, sync::LazyLock};
use zxcvbn::{
    Score,
    feedback::{Suggestion, Warning},
};

/// Lowest zxcvbn score (0–4) accepted; zxcvbn calls anything below 3 too weak.
pub const MIN_SCORE: Score = Score::Three;

/// The bundled list, gzip-compressed, one password per line, sorted.
const COMMON_GZ: &[u8] = include_bytes!("../../data/common-passwords/top-100k.txt.gz");

/// The list unpacked: lower-cased, sorted and without repeats, for binary search.
static COMMON: LazyLock<Vec<String>> = LazyLock::new(|| {
    let mut list: Vec<String> = common_entries().iter().map(|p| p.to_lowercase()).collect();
    list.sort_unstable();
    list.dedup();
    list
});

/// Every entry of the bundled list as shipped (case kept).
///
/// # Panics
/// When the embedded file is not valid gzip of UTF-8 text, which a unit test rules out.
pub fn common_entries() -> Vec<String> {
    let mut text = String::new();
    flate2::read::GzDecoder::new(COMMON_GZ)
        .read_to_string(&mut text)
        .expect("the embedded common-password list is gzip-compressed UTF-8");
    text.lines().filter(|l| !l.is_empty()).map(str::to_string).collect()
}

/// Loads the list ahead of the first password check (call at start-up).
pub fn warm_up() -> usize {
    COMMON.len()
}

/// Whether `password` is on the bundled list, ignoring case.
pub fn is_common(password: &str) -> bool {
    COMMON.binary_search(&password.to_lowercase()).is_ok()
}

/// Why a password was refused: the reason, then what to do instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weakness {
    /// The main reason, e.g. [`Msg::PwQualityCommon`].
    pub reason: Msg,
    /// Advice, in zxcvbn's order (may be empty).
    pub suggestions: Vec<Msg>,
}

/// The refusal of a password on the bundled list.
pub fn common_weakness() -> Weakness {
    Weakness {
        reason: Msg::PwQualityCommon,
        suggestions: vec![Msg::PwQualitySFewWords],
    }
}

/// Judges a new password. `personal` are words the password should not be built from: the
/// user's e-mail address and display name.
pub fn judge(password: &str, personal: &[&str]) -> Result<(), Weakness> {
    if is_common(password) {
        return Err(common_weakness());
    }
    let inputs = personal_words(personal);
    let inputs: Vec<&str> = inputs.iter().map(String::as_str).collect();
    let entropy = zxcvbn::zxcvbn(password, &inputs);
    if entropy.score() >= MIN_SCORE {
        return Ok(());
    }
    let feedback = entropy.feedback();
    let reason = feedback
        .and_then(zxcvbn::feedback::Feedback::warning)
        .map_or(Msg::PwQualityWeak, warning_msg);
    let mut suggestions: Vec<Msg> = feedback
        .map(|f| f.suggestions().iter().copied().map(suggestion_msg).collect())
        .unwrap_or_default();
    let lower = password.to_lowercase();
    if inputs.iter().any(|w| lower.contains(w)) {
        suggestions.push(Msg::PwQualitySAvoidPersonal);
    }
    if suggestions.is_empty() {
        suggestions.push(Msg::PwQualitySAddWord);
    }
    suggestions.dedup();
    Err(Weakness { reason, suggestions })
}

/// The e-mail address, its local part and domain words, and each word of the name: lower-case,
/// four characters or more (shorter ones match too much by chance).
fn personal_words(personal: &[&str]) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for item in personal {
        let item = item.trim().to_lowercase();
        words.push(item.clone());
        words.extend(
            item.split(|c: char| !c.is_alphanumeric())
                .filter(|w| w.chars().count() >= 4)
                .map(str::to_string),
        );
    }
    words.retain(|w| w.chars().count() >= 4);
    words.sort_unstable();
    words.dedup();
    words
}

fn warning_msg(w: Warning) -> Msg {
    match w {
        Warning::StraightRowsOfKeysAreEasyToGuess => Msg::PwQualityWStraightRows,
        Warning::ShortKeyboardPatternsAreEasyToGuess => Msg::PwQualityWShortKeyboardPatterns,
        Warning::RepeatsLikeAaaAreEasyToGuess => Msg::PwQualityWRepeatsAaa,
        Warning::RepeatsLikeAbcAbcAreOnlySlightlyHarderToGuess => Msg::PwQualityWRepeatsAbcabc,
        Warning::ThisIsATop10Password => Msg::PwQualityWTop10,
        Warning::ThisIsATop100Password => Msg::PwQualityWTop100,
        Warning::ThisIsACommonPassword => Msg::PwQualityWCommon,
        Warning::ThisIsSimilarToACommonlyUsedPassword => Msg::PwQualityWSimilarToCommon,
        Warning::SequencesLikeAbcAreEasyToGuess => Msg::PwQualityWSequences,
        Warning::RecentYearsAreEasyToGuess => Msg::PwQualityWRecentYears,
        Warning::AWordByItselfIsEasyToGuess => Msg::PwQualityWWordByItself,
        Warning::DatesAreOftenEasyToGuess => Msg::PwQualityWDates,
        Warning::NamesAndSurnamesByThemselvesAreEasyToGuess => Msg::PwQualityWNamesByThemselves,
        Warning::CommonNamesAndSurnamesAreEasyToGuess => Msg::PwQualityWCommonNames,
    }
}

fn suggestion_msg(s: Suggestion) -> Msg {
    match s {
        Suggestion::UseAFewWordsAvoidCommonPhrases => Msg::PwQualitySFewWords,
        Suggestion::NoNeedForSymbolsDigitsOrUppercaseLetters => Msg::PwQualitySNoNeedForSymbols,
        Suggestion::AddAnotherWordOrTwo => Msg::PwQualitySAddWord,
        Suggestion::CapitalizationDoesntHelpVeryMuch => Msg::PwQualitySCapitalization,
        Suggestion::AllUppercaseIsAlmostAsEasyToGuessAsAllLowercase => Msg::PwQualitySAllUppercase,
        Suggestion::ReversedWordsArentMuchHarderToGuess => Msg::PwQualitySReversedWords,
        Suggestion::PredictableSubstitutionsDontHelpVeryMuch => Msg::PwQualitySSubstitutions,
        Suggestion::UseALongerKeyboardPatternWithMoreTurns => Msg::PwQualitySLongerKeyboardPattern,
        Suggestion::AvoidRepeatedWordsAndCharacters => Msg::PwQualitySAvoidRepeats,
        Suggestion::AvoidSequences => Msg::PwQualitySAvoidSequences,
        Suggestion::AvoidRecentYears => Msg::PwQualitySAvoidRecentYears,
        Suggestion::AvoidYearsThatAreAssociatedWithYou => Msg::PwQualitySAvoidYourYears,
        Suggestion::AvoidDatesAndYearsThatAreAssociatedWithYou => Msg::PwQualitySAvoidYourDates,
    }
}

/// [`check_new_password`](accounts::check_new_password), then its quality: not one of the 100,000 most common passwords and
/// hard enough to guess (this module). `personal` are the user's e-mail
/// address and name, which the password should not be built from. Every place a password is
/// set calls this (first-admin setup, an admin creating a user, the password change, the CLI).
pub fn check_new_password_quality(
    password: &str,
    confirmation: &str,
    personal: &[&str],
) -> Result<(), PasswordRefusal> {
    // The list first: "password1" is better refused as common than as short.
    if is_common(password) {
        return Err(PasswordRefusal::Weak(common_weakness()));
    }
    accounts::check_new_password(password, confirmation).map_err(PasswordRefusal::Invalid)?;
    judge(password, personal).map_err(PasswordRefusal::Weak)
}

/// Why a new password is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PasswordRefusal {
    /// Too short, too long, or not typed the same twice.
    Invalid(Msg),
    /// Common, or built from the user's own name or address, or otherwise easy to guess.
    Weak(Weakness),
}

/// A refused password is an error the form shows beside its field.
impl From<PasswordRefusal> for AppError {
    fn from(refusal: PasswordRefusal) -> Self {
        match refusal {
            PasswordRefusal::Invalid(m) => AppError::Invalid(m),
            PasswordRefusal::Weak(w) => AppError::WeakPassword {
                reason: w.reason,
                suggestions: w.suggestions,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundled_list_loads_with_at_least_100_000_entries() {
        let raw = common_entries();
        assert!(raw.len() >= 100_000, "{} entries", raw.len());
        assert!(raw.windows(2).all(|w| w[0] < w[1]), "sorted, no repeats");
        assert!(warm_up() > 95_000, "{} after folding case", warm_up());
        for top in ["123456", "password", "qwerty", "iloveyou"] {
            assert!(is_common(top), "{top}");
        }
    }

    #[test]
    fn list_entries_are_refused_with_the_list_as_reason_ignoring_case() {
        for p in ["password1", "PASSWORD1", "01telemike01", "123123qweqwe", "111222333444"] {
            let w = judge(p, &[]).unwrap_err();
            assert_eq!(w.reason, Msg::PwQualityCommon, "{p}");
            assert_eq!(w.suggestions, vec![Msg::PwQualitySFewWords]);
        }
        assert!(!is_common("walnut kettle orbit lantern"));
    }

    #[test]
    fn guessable_passwords_off_the_list_are_refused_with_zxcvbn_reason() {
        let w = judge("aaaaaaaaaaaaaaaa", &[]).unwrap_err();
        assert_eq!(w.reason, Msg::PwQualityWRepeatsAaa);
        assert!(w.suggestions.contains(&Msg::PwQualitySAvoidRepeats), "{w:?}");
        let w = judge("qwertyuiop[]asdf", &[]).unwrap_err();
        assert_eq!(w.reason, Msg::PwQualityWStraightRows, "{w:?}");
        let w = judge("abcdefghijklmnop", &[]).unwrap_err();
        assert_eq!(w.reason, Msg::PwQualityWSequences, "{w:?}");
    }

    #[test]
    fn the_users_own_name_and_email_weaken_a_password() {
        let personal = ["wilhelmina.brandstetter@example.com", "Wilhelmina Brandstetter"];
        let w = judge("wilhelminabrandstetter", &personal).unwrap_err();
        assert!(w.suggestions.contains(&Msg::PwQualitySAvoidPersonal), "{w:?}");
    }

    #[test]
    fn strong_passphrases_pass() {
        for p in [
            "walnut kettle orbit lantern",
            "correct horse battery staple",
            "Grüne Tinte auf dem Flussufer",
            "算力采购需要三份报价单",
        ] {
            assert_eq!(judge(p, &["ann@example.com", "Ann"]), Ok(()), "{p}");
        }
    }
}
