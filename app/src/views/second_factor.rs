//! What the second-factor server functions send to pages.

use serde::{Deserialize, Serialize};

/// The caller's second factor, for the account page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SecondFactorStatus {
    /// An authenticator is confirmed: sign-in and sign-off ask for its codes.
    pub enabled: bool,
    /// Unused recovery codes.
    pub recovery_codes_left: i64,
    /// The site requires a second factor for this user (so it cannot be switched off).
    pub required: bool,
}

/// A started enrolment: what the user scans or types into the authenticator app. Sent once;
/// the secret is never shown again after the first code confirms it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Enrolment {
    /// The `otpauth://` URL as an inline SVG QR code.
    pub qr_svg: String,
    /// The base32 secret in groups of four, for typing by hand.
    pub secret: String,
    /// The account name the app will show.
    pub account: String,
}
