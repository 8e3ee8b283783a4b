//! `GET /api/tables/{id}/analysis`: the analysis of a game that is over, exactly as
//! `calltrump analyze --json` gives it for the table's record (the expert judges every
//! decision from what its seat knew; seed 0, the expert's budget). It takes seconds of a
//! core, so it is worked out on a blocking thread, one at a time over the whole server,
//! and kept for the next asker. A game still in play has none: its analysis would show
//! the hands of the hand in progress and advise the players.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::{Extension, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use calltrump_play::analysis::{analyze, Settings};
use tokio::sync::Semaphore;

use crate::hub::Hub;
use crate::model::TableStatus;
use crate::request::{error, TableId};

/// Most analyses kept in memory (each some hundred KB of JSON); past it, one is dropped.
const MOST_KEPT: usize = 64;

/// The analyses worked out so far, by table id, and the one worker's permit.
struct Analyses {
    kept: Mutex<HashMap<String, Arc<String>>>,
    worker: Semaphore,
}

impl Analyses {
    fn kept(&self, id: &str) -> Option<Arc<String>> {
        let kept = self.kept.lock().expect("the analyses are never poisoned");
        kept.get(id).cloned()
    }

    fn keep(&self, id: &str, json: Arc<String>) {
        let mut kept = self.kept.lock().expect("the analyses are never poisoned");
        if kept.len() >= MOST_KEPT {
            // Any one: a dropped analysis is only worked out again.
            if let Some(dropped) = kept.keys().next().cloned() {
                kept.remove(&dropped);
            }
        }
        kept.insert(id.to_string(), json);
    }
}

/// The analysis route.
pub fn routes() -> Router<Hub> {
    let analyses = Arc::new(Analyses {
        kept: Mutex::new(HashMap::new()),
        worker: Semaphore::new(1),
    });
    Router::new()
        .route("/api/tables/{id}/analysis", get(table_analysis))
        .layer(Extension(analyses))
}

async fn table_analysis(
    State(hub): State<Hub>,
    Extension(analyses): Extension<Arc<Analyses>>,
    TableId(id): TableId,
) -> Response {
    match hub.status(&id).await {
        Ok(Some(TableStatus::Over | TableStatus::Ended)) => {}
        Ok(Some(status)) => {
            return error(
                StatusCode::CONFLICT,
                format!("table {id} is {status}: a game has its analysis once it is over"),
            )
        }
        Ok(None) => return error(StatusCode::NOT_FOUND, format!("no table {id}")),
        Err(e) => return e.into_response(),
    }
    if let Some(json) = analyses.kept(&id) {
        return json_response(json);
    }
    let Ok(_permit) = analyses.worker.acquire().await else {
        return error(StatusCode::SERVICE_UNAVAILABLE, "the server is stopping");
    };
    // Another request may have worked it out while this one waited.
    if let Some(json) = analyses.kept(&id) {
        return json_response(json);
    }
    let record = match hub.record(&id).await {
        Ok(record) => record,
        Err(e) => return e.into_response(),
    };
    let worked = tokio::task::spawn_blocking(move || {
        let analysis = analyze(&record, &Settings::expert(), &mut || {})?;
        Ok::<_, calltrump_play::analysis::AnalysisError>(
            serde_json::to_string(&analysis).expect("an analysis serialises"),
        )
    })
    .await;
    match worked {
        Ok(Ok(json)) => {
            let json = Arc::new(json);
            analyses.keep(&id, Arc::clone(&json));
            json_response(json)
        }
        Ok(Err(e)) => error(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("table {id}'s record cannot be analysed: {e}"),
        ),
        Err(_) => {
            tracing::error!(table = %id, "the analysis of a table failed");
            error(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("the analysis of table {id} failed"),
            )
        }
    }
}

fn json_response(json: Arc<String>) -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        json.as_str().to_owned(),
    )
        .into_response()
}
