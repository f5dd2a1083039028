//! Provider profiles: saved checked as loading checks them, read back with whether each key is
//! set, and a profile that is not there is not found.

use unfold_application::profiles::Profiles;
use unfold_application::ErrorCode;
use unfold_documents::provider_profile::{ProviderKind, ProviderProfile};

fn profile(name: &str, key_env: Option<&str>) -> ProviderProfile {
    ProviderProfile {
        name: name.into(),
        kind: ProviderKind::Openai,
        base_url: "http://127.0.0.1:11434/v1".into(),
        model: "qwen3".into(),
        temperature: None,
        max_tokens: None,
        stream: true,
        connect_timeout_ms: None,
        read_timeout_ms: None,
        api_key_env: key_env.map(str::to_owned),
        api_key_keychain: false,
        dynamic_tools: true,
    }
}

#[test]
fn profiles_are_saved_checked_and_read_back_with_their_key_status() {
    let folder = tempfile::tempdir().unwrap();
    let profiles = Profiles(Some(folder.path().join("config/unfold/providers.json")));
    assert_eq!(profiles.view().unwrap().profiles, []);
    let saved = profiles
        .save(vec![profile("local", None), profile("remote", Some("UNFOLD_APP_TEST_KEY_THAT_IS_NOT_SET"))])
        .unwrap();
    assert_eq!(saved.profiles.len(), 2);
    assert_eq!(saved.keys_set, [true, false]);
    assert_eq!(profiles.get("remote").unwrap().model, "qwen3");

    let mut duplicate = profile("local", None);
    duplicate.base_url = "ftp://nowhere".into();
    let refused = profiles.save(vec![profile("local", None), duplicate]).unwrap_err();
    assert_eq!(refused.code, ErrorCode::InvalidProfiles);
    let places: Vec<String> = refused.problems.iter().map(|p| p.location.to_string()).collect();
    assert_eq!(places, ["/profiles/1/base_url", "/profiles/1/name"]);
    assert_eq!(profiles.view().unwrap().profiles.len(), 2, "a refused save changes nothing");
    let unknown = profiles.get("nope").unwrap_err();
    assert_eq!(unknown.code, ErrorCode::NotFound);
    assert!(unknown.message.contains("no profile named 'nope'"), "{}", unknown.message);
}

#[test]
fn without_a_home_folder_there_are_no_profiles_and_none_can_be_saved() {
    let profiles = Profiles(None);
    assert_eq!(profiles.view().unwrap().path, None);
    assert_eq!(profiles.save(Vec::new()).unwrap_err().code, ErrorCode::Unavailable);
}
