//! `nodeledger serve`: the web server, its set-up code, the mail sender and the housekeeping
//! that runs beside it, until a signal stops it.

use super::*;

pub(super) async fn serve(db: &DbArgs, cfg: ServeConfig) -> Result<(), CliError> {
    let pool = store::connect(&db.path).await?;
    tracing::info!(db = %db.path, "database open");
    rejudge_on_new_rules(&pool).await?;
    if !cfg.secure_cookies() && !cfg.addr.ip().is_loopback() {
        tracing::warn!(
            "serving plain http on a non-loopback address: set NODELEDGER_PUBLIC_URL to an https URL behind a TLS proxy"
        );
    }
    let key_file = cfg.key_file(&db.path);
    store::secret_key::at_start(&pool, &key_file)
        .await
        .map_err(|e| CliError::Usage(e.to_string()))?;
    tracing::info!(key_file = %key_file.display(), "second-factor key open");
    let setup_code = SetupCode::at_start(&pool, &db.path).await?;
    announce_setup_code(&setup_code, &cfg);
    let sessions = SqliteSessionStore::new(pool.clone());
    let state = AppState {
        db: pool.clone(),
        sessions: sessions.clone(),
        auth: AuthConfig {
            idle_timeout: cfg.idle_timeout(),
            absolute_timeout: cfg.absolute_timeout(),
        },
        setup_code,
    };
    password::warm_up().await.map_err(|e| CliError::Usage(e.to_string()))?;
    tokio::spawn(housekeeping(pool.clone(), sessions));
    spawn_mail(&cfg, &pool)?;
    let app = router::build(state, Default::default(), &cfg);
    // No Nagle delay: streamed pages are written in several chunks, and waiting for the
    // client's delayed ACK would add ~40 ms to every response.
    let listener = tokio::net::TcpListener::bind(cfg.addr).await?.tap_io(|tcp| {
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::warn!(error = %e, "cannot set TCP_NODELAY");
        }
    });
    tracing::info!("NodeLedger listening on http://{}", cfg.addr);
    // With the peer address: the client address of the password throttle.
    axum::serve(
        listener,
        app.into_make_service_with_connect_info::<std::net::SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown_signal())
    .await?;
    pool.close().await;
    Ok(())
}

/// Prints the one-time set-up code on standard error (whatever the log level) and in the log,
/// when the database has no user yet: only who runs the server can then create the first
/// administrator.
pub(super) fn announce_setup_code(code: &SetupCode, cfg: &ServeConfig) {
    let Some(shown) = code.shown() else {
        return;
    };
    let file = code
        .file()
        .map_or_else(|| "(not written)".to_string(), |f| f.display().to_string());
    tracing::warn!(setup_code = %shown, file = %file, "no users yet: create the first administrator at /setup with this setup code");
    let rule = "=".repeat(72);
    eprintln!(
        "{rule}\nNodeLedger has no users yet. Open {}/setup to create the first administrator\nwith this one-time setup code:\n\n    {shown}\n\nIt is also in the file {file} (readable by this account only),\ndeleted once set-up is done.\n{rule}",
        cfg.public_url()
    );
}

/// Starts the optional to-do mail when an SMTP server is configured (see `crate::mail`).
pub(super) fn spawn_mail(cfg: &ServeConfig, pool: &store::Db) -> Result<(), CliError> {
    match crate::mail::Mailer::from_config(&cfg.mail, &cfg.public_url()) {
        Ok(Some(mailer)) => {
            tracing::info!(every_min = cfg.mail.interval().as_secs() / 60, "to-do mail on");
            tokio::spawn(crate::mail::run(mailer, pool.clone(), cfg.mail.interval()));
            Ok(())
        }
        Ok(None) => Ok(()),
        Err(e) => Err(CliError::Usage(e.to_string())),
    }
}

/// Every ten minutes: delete expired sessions, sign-in attempts older than a day, and run files
/// uploaded more than a day ago that no run claimed (previews never saved).
pub(super) async fn housekeeping(pool: store::Db, sessions: SqliteSessionStore) {
    let mut tick = tokio::time::interval(Duration::from_secs(600));
    loop {
        tick.tick().await;
        if let Err(e) = sessions.delete_expired().await {
            tracing::warn!(error = %e, "cannot delete expired sessions");
        }
        if let Err(e) = store::login_attempts::prune(&pool, store::now_unix() - 86_400).await {
            tracing::warn!(error = %e, "cannot prune sign-in attempts");
        }
        if let Err(e) = delete_unclaimed_run_files(&pool).await {
            tracing::warn!(error = %e, "cannot delete unclaimed run files");
        }
        if let Err(e) = store::db::optimize(&pool).await {
            tracing::warn!(error = %e, "cannot refresh query statistics");
        }
    }
}

pub(super) async fn delete_unclaimed_run_files(pool: &store::Db) -> Result<(), sqlx::Error> {
    let day_ago = time::OffsetDateTime::now_utc() - time::Duration::days(1);
    let before = app::clock::stamp(day_ago);
    let mut tx = store::begin_write(pool).await?;
    let deleted = store::runs::delete_unclaimed_files(&mut tx, &before).await?;
    tx.commit().await?;
    if deleted > 0 {
        tracing::info!(deleted, "unclaimed run files deleted");
    }
    Ok(())
}

pub(super) async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! { () = ctrl_c => {}, () = term => {} }
    tracing::info!("shutting down");
}
