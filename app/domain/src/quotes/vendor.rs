//! The vendor and what its operations support covers: which operations tasks it helps with.

use serde::{Deserialize, Serialize};

/// Which operations tasks the vendor helps with: image, network and fault handling; remote help
/// with environment set-up, instance provisioning and resource release.
/// `None` means the vendor has not said.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SupportScope {
    /// Remote help deploying the software environment.
    #[serde(default)]
    pub environment_setup: Option<bool>,
    /// Opening (provisioning) instances on the buyer's behalf.
    #[serde(default)]
    pub provisioning: Option<bool>,
    /// Releasing instances and reclaiming resources.
    #[serde(default)]
    pub resource_release: Option<bool>,
    /// Building or maintaining images.
    #[serde(default)]
    pub image_maintenance: Option<bool>,
    /// Network set-up (private network, ports, access control).
    #[serde(default)]
    pub network_setup: Option<bool>,
    /// Fault diagnosis and recovery.
    #[serde(default)]
    pub troubleshooting: Option<bool>,
    /// Anything else the vendor states about support, in its words.
    #[serde(default)]
    pub notes: String,
}

/// A vendor quotes come from.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vendor {
    /// The vendor's name; quotes refer to it by this name.
    pub name: String,
    /// The vendor's web site.
    #[serde(default)]
    pub website: String,
    /// Contact person, phone or e-mail.
    #[serde(default)]
    pub contact: String,
    /// Free text; may be empty.
    #[serde(default)]
    pub notes: String,
    /// What operations support the vendor offers.
    #[serde(default)]
    pub support_scope: SupportScope,
}
