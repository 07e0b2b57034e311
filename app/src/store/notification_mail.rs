//! The `notification_mail` table: which to-do entries were mailed to whom (so none is mailed
//! twice), and `user_locales`' one use: the language to write a user's mail in.

use super::Tx;
use crate::i18n::Locale;
use sqlx::SqliteExecutor;

/// Which of `entries` were already mailed to `user_id`.
pub async fn already_sent(
    db: impl SqliteExecutor<'_>,
    user_id: i64,
    entries: &[String],
) -> Result<Vec<String>, sqlx::Error> {
    if entries.is_empty() {
        return Ok(Vec::new());
    }
    let list = serde_json::to_string(entries).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
    sqlx::query_scalar(
        "SELECT entry FROM notification_mail WHERE user_id = ? AND entry IN (SELECT value FROM json_each(?))",
    )
    .bind(user_id)
    .bind(list)
    .fetch_all(db)
    .await
}

/// Records `entries` as mailed to `user_id` (entries recorded before are kept as they were).
pub async fn record_sent(tx: &mut Tx, user_id: i64, entries: &[String]) -> Result<(), sqlx::Error> {
    for entry in entries {
        sqlx::query("INSERT INTO notification_mail (user_id, entry) VALUES (?, ?) ON CONFLICT DO NOTHING")
            .bind(user_id)
            .bind(entry)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

/// The language `user_id` last used the app in (`None`: never recorded).
pub async fn locale(db: impl SqliteExecutor<'_>, user_id: i64) -> Result<Option<Locale>, sqlx::Error> {
    let tag: Option<String> = sqlx::query_scalar("SELECT locale FROM user_locales WHERE user_id = ?")
        .bind(user_id)
        .fetch_optional(db)
        .await?;
    Ok(tag.as_deref().and_then(Locale::from_tag))
}

/// Remembers `locale` for `user_id`'s mail; writes only when it changed.
pub async fn remember_locale(db: &super::Db, user_id: i64, locale: Locale) -> Result<(), sqlx::Error> {
    if self::locale(db, user_id).await? == Some(locale) {
        return Ok(());
    }
    let mut tx = super::begin_write(db).await?;
    sqlx::query("INSERT INTO user_locales (user_id, locale) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale")
        .bind(user_id)
        .bind(locale.tag())
        .execute(&mut *tx)
        .await?;
    tx.commit().await
}
