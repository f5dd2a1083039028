//! The prices runs are costed at (spec 10): Unfold's shipped ones, overridden model by model by
//! the user's file (`$UNFOLD_PRICES`, else `unfold/prices.json` in the configuration folder, beside
//! the provider profiles), read as it is now on every use. A scripted comparison is priced as the
//! model the user names; a live run as the model that answered it, when a file prices it.

use std::path::PathBuf;

use unfold_documents::prices::{Prices, Pricing};

use crate::error::{AppError, AppResult, ErrorCode};

/// The user's prices file (`None` without a home folder).
#[derive(Debug, Clone)]
pub struct PriceFile(pub Option<PathBuf>);

impl PriceFile {
    /// The prices in force: the shipped ones, overridden by the user's file when it exists. A
    /// file that cannot be read or is not a prices file is an error naming it and the place.
    pub fn prices(&self) -> AppResult<Prices> {
        let shipped = Prices::shipped();
        match &self.0 {
            Some(path) if path.exists() => {
                let own = Prices::load(path).map_err(AppError::invalid_as(ErrorCode::InvalidRequest))?;
                Ok(shipped.overridden_by(&own))
            }
            _ => Ok(shipped.clone()),
        }
    }

    /// The price of `model`, which the user asked for by name (`--price-as`): an error when no
    /// file prices it, naming the models that are priced.
    pub fn pricing_as(&self, model: &str) -> AppResult<Pricing> {
        let prices = self.prices()?;
        prices.pricing(model).ok_or_else(|| {
            let known: Vec<&str> = prices.models.keys().map(String::as_str).collect();
            let file = self.0.as_ref().map_or("a prices file".to_owned(), |path| path.display().to_string());
            AppError::new(
                ErrorCode::InvalidRequest,
                format!("no price for model '{model}' (priced: {}); add it to {file}", known.join(", ")),
            )
        })
    }

    /// The price of the model a live run talks to, if a file prices it (a run of a model with no
    /// price shows tokens only).
    pub fn pricing_of(&self, model: &str) -> AppResult<Option<Pricing>> {
        Ok(self.prices()?.pricing(model))
    }
}
