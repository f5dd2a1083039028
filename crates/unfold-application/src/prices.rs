//! The prices runs are costed at (spec 10): Unfold's shipped ones, overridden model by model by
//! the user's file (`$UNFOLD_PRICES`, else `unfold/prices.json` in the configuration folder, beside
//! the provider profiles), read as it is now on every use; a file the variable names must be there
//! (a typo in it is an error, never the shipped prices in silence). A scripted comparison is
//! priced as the model the user names, else as the prices' default model (so its verdict speaks
//! in money from the first run); a live run as the model that answered it, when a file prices it.

use unfold_documents::error::printable_path;
use unfold_documents::prices::{Prices, Pricing};

use crate::error::{AppError, AppResult, ErrorCode};
use crate::folders::UserFile;

/// The models a scripted comparison can be priced as, and the one it is priced as when none is
/// named.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct PricedModels {
    /// Every model the prices in force name, in their order.
    pub models: Vec<String>,
    /// The prices' default model, when they have one.
    pub default_model: Option<String>,
}

/// The user's prices file (`None` without a home folder).
#[derive(Debug, Clone)]
pub struct PriceFile(pub Option<UserFile>);

impl PriceFile {
    /// The prices in force: the shipped ones, overridden by the user's file. A file that cannot
    /// be read or is not a prices file is an error naming it and the place; so is a file that
    /// `$UNFOLD_PRICES` names and that is not there (the configuration folder's may be absent).
    pub fn prices(&self) -> AppResult<Prices> {
        let shipped = Prices::shipped();
        let Some(file) = &self.0 else { return Ok(shipped.clone()) };
        if file.named_by.is_none() && !file.path.exists() {
            return Ok(shipped.clone());
        }
        let own = Prices::load(&file.path).map_err(|error| {
            let mut error = AppError::invalid_as(ErrorCode::InvalidRequest)(error);
            if let Some(variable) = file.named_by.filter(|_| error.code == ErrorCode::UnreadableFile) {
                error.message.push_str(&format!(" (the prices file ${variable} names)"));
            }
            error
        })?;
        Ok(shipped.overridden_by(&own))
    }

    /// The models the prices in force name, and their default.
    pub fn priced_models(&self) -> AppResult<PricedModels> {
        let prices = self.prices()?;
        Ok(PricedModels { default_model: prices.default_model, models: prices.models.into_keys().collect() })
    }

    /// The price of `model`, which the user asked for by name (`--price-as`): an error when no
    /// file prices it, naming the models that are priced.
    pub fn pricing_as(&self, model: &str) -> AppResult<Pricing> {
        let prices = self.prices()?;
        prices.pricing(model).ok_or_else(|| {
            let known: Vec<&str> = prices.models.keys().map(String::as_str).collect();
            let file = self.0.as_ref().map_or("a prices file".to_owned(), |file| printable_path(&file.path));
            AppError::new(
                ErrorCode::InvalidRequest,
                format!("no price for model '{model}' (priced: {}); add it to {file}", known.join(", ")),
            )
        })
    }

    /// The price of the model a scripted comparison is priced as when none is named: the prices'
    /// `default_model`. An error when it names a model no file prices; `None` when there is none.
    pub fn default_pricing(&self) -> AppResult<Option<Pricing>> {
        let prices = self.prices()?;
        let Some(model) = &prices.default_model else { return Ok(None) };
        prices.pricing(model).map(Some).ok_or_else(|| {
            let file = self.0.as_ref().map_or("the prices file".to_owned(), |file| printable_path(&file.path));
            AppError::new(
                ErrorCode::InvalidRequest,
                format!("{file}: /default_model: no file prices the default model '{model}'"),
            )
        })
    }

    /// The price of the model a live run talks to, if a file prices it (a run of a model with no
    /// price shows tokens only).
    pub fn pricing_of(&self, model: &str) -> AppResult<Option<Pricing>> {
        Ok(self.prices()?.pricing(model))
    }
}
