//! A host's request to the scripted model endpoint (spec 13): any bytes that parse as JSON, read
//! as a request of each API, streamed or not, as the endpoint's routes read them, and the request
//! parts a recording's prompt-cache analysis takes from it. Each must answer `Ok` or an error
//! naming the place, never panic; a request read must give the scripted model a request.
#![no_main]

use libfuzzer_sys::fuzz_target;
use unfold_documents::host_profile::HostApi;
use unfold_hostlab::host_requests::HostRequest;
use unfold_hostlab::recording::prompt_shape;

const APIS: [HostApi; 4] = [HostApi::Anthropic, HostApi::OpenaiChat, HostApi::OpenaiResponses, HostApi::Gemini];

fuzz_target!(|bytes: &[u8]| {
    let Ok(body) = serde_json::from_slice::<serde_json::Value>(bytes) else { return };
    for api in APIS {
        for streamed in [false, true] {
            if let Ok(request) = HostRequest::read(api, &body, streamed) {
                let model_request = request.model_request();
                assert_eq!(model_request.messages.len(), request.messages.len());
                assert!(request.stream || !streamed, "a streamed route streams");
            }
        }
        let shape = prompt_shape(api, &body);
        let _ = shape.tokens();
    }
});
