//! Creating a user: the one use case behind the first-run page, the administrators' page and
//! `nodeledger user add`.
//!
//! 1. The fields are checked ([`NewUser::check`]): the e-mail and name normalised, the password
//!    long enough, typed the same twice and not easy to guess from the list or the user's own
//!    name and address.
//! 2. The password is hashed outside the write transaction (it takes a while).
//! 3. In one `BEGIN IMMEDIATE` transaction: set-up still open (first-run page only; any
//!    administrator closes it), the user, the team when it is named and new (command line), the
//!    membership, and the audit events, which name who created the user and from where.

use crate::{
    auth::password,
    domain::{
        accounts,
        audit::{Action, CLI_ACTOR},
        roles::TeamRole,
    },
    error::AppError,
    i18n::Msg,
    services::{password_quality, site_audit},
    store::{self, Db, Tx, users::UserForCreate},
};

/// The checked fields of a new user.
#[derive(Clone, Debug)]
pub struct NewUser {
    /// Normalised e-mail address.
    pub email: String,
    /// Trimmed display name.
    pub display_name: String,
    /// The password, good enough ([`password_quality::check_new_password_quality`]).
    password: String,
    /// A site administrator.
    pub is_admin: bool,
}

impl NewUser {
    /// Checks and normalises the fields of a new user.
    ///
    /// # Errors
    /// [`AppError::Invalid`] naming the field, or [`AppError::WeakPassword`].
    pub fn check(
        email: &str,
        display_name: &str,
        password: String,
        confirmation: &str,
        is_admin: bool,
    ) -> Result<Self, AppError> {
        let email = accounts::normalize_email(email).map_err(AppError::Invalid)?;
        let display_name = accounts::normalize_display_name(display_name).map_err(AppError::Invalid)?;
        password_quality::check_new_password_quality(&password, confirmation, &[&email, &display_name])?;
        Ok(Self {
            email,
            display_name,
            password,
            is_admin,
        })
    }
}

/// The team a new user joins.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TeamChoice {
    /// An existing team, by id (the administrators' page).
    Existing(i64),
    /// A team by name, created when there is none yet (the command line).
    Named(String),
}

/// Who creates the user, and from where (recorded in the audit event's `via`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The first-run page: the first administrator creates themselves, while set-up is open.
    Setup,
    /// The administrators' page, by this administrator.
    AdminPage(i64),
    /// `nodeledger user add`.
    CommandLine,
}

impl Origin {
    fn via(self) -> &'static str {
        match self {
            Origin::Setup => "setup",
            Origin::AdminPage(_) => "web",
            Origin::CommandLine => "cli",
        }
    }

    /// Who the audit events name: the new user at set-up, the administrator, or the command line.
    fn actor(self, new_user: i64) -> i64 {
        match self {
            Origin::Setup => new_user,
            Origin::AdminPage(admin) => admin,
            Origin::CommandLine => CLI_ACTOR,
        }
    }
}

/// The user created, and the team they joined.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Created {
    /// The new user's id.
    pub user_id: i64,
    /// The team joined and the role there.
    pub team: Option<(i64, TeamRole)>,
}

/// Creates `user`, member of `team` with its role when given, in one transaction with its audit
/// events.
///
/// # Errors
/// [`Msg::SetupAlreadyDone`] when set-up closed meanwhile (first-run page),
/// [`Msg::EmailTaken`], [`Msg::TeamUnknown`] for a team id that does not exist, the database.
pub async fn create_user(
    db: &Db,
    user: NewUser,
    team: Option<(TeamChoice, TeamRole)>,
    origin: Origin,
) -> Result<Created, AppError> {
    let NewUser {
        email,
        display_name,
        password,
        is_admin,
    } = user;
    let hash = password::hash(password).await?;
    let mut tx = store::begin_write(db).await?;
    // Checked again inside the write transaction: a user added meanwhile (command line, a
    // parallel set-up) closes it.
    if origin == Origin::Setup && !store::site::setup_open(&mut *tx).await? {
        return Err(AppError::Conflict(Msg::SetupAlreadyDone));
    }
    if is_admin {
        // Any administrator closes set-up; at set-up, only the first one does.
        let closed_now = store::site::complete_setup(&mut tx).await?;
        if origin == Origin::Setup && !closed_now {
            return Err(AppError::Conflict(Msg::SetupAlreadyDone));
        }
    }
    let row = UserForCreate {
        email: &email,
        display_name: &display_name,
        password_hash: &hash,
        is_admin,
    };
    let user_id = store::users::insert(&mut tx, &row)
        .await?
        .ok_or(AppError::Conflict(Msg::EmailTaken))?;
    let actor = origin.actor(user_id);
    let joined = match team {
        Some((choice, role)) => {
            let team_id = team_id(&mut tx, choice, actor).await?;
            store::memberships::upsert(&mut tx, user_id, team_id, role).await?;
            Some((team_id, role))
        }
        None => None,
    };
    let event = site_audit::user_created(user_id, &email, is_admin, joined, origin.via());
    site_audit::record(&mut tx, actor, Action::UserCreated, event).await?;
    tx.commit().await?;
    tracing::info!(user_id, via = origin.via(), "user created");
    Ok(Created { user_id, team: joined })
}

/// The id of the chosen team; a named team is created (and audited) when there is none.
async fn team_id(tx: &mut Tx, choice: TeamChoice, actor: i64) -> Result<i64, AppError> {
    match choice {
        TeamChoice::Existing(id) => store::teams::name_of(&mut **tx, id)
            .await?
            .map(|_| id)
            .ok_or(AppError::Invalid(Msg::TeamUnknown)),
        TeamChoice::Named(name) => {
            let name = accounts::normalize_team_name(&name).map_err(AppError::Invalid)?;
            if let Some(id) = store::teams::id_by_name(&mut **tx, &name).await? {
                return Ok(id);
            }
            let id = store::teams::insert(tx, &name)
                .await?
                .ok_or(AppError::Conflict(Msg::TeamNameTaken))?;
            let event = serde_json::json!({ "team_id": id, "name": name });
            site_audit::record(tx, actor, Action::TeamCreated, event).await?;
            Ok(id)
        }
    }
}
