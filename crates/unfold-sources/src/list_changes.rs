//! Counting a server's `notifications/tools/list_changed` in the transport, as each message is
//! received, so the count is up to date by the time the answer that follows it is delivered.
//!
//! The SDK runs notification handlers on tasks of their own but hands a request's answer to its
//! caller directly, so a count kept by a handler may lag behind the answer of the very call that
//! changed the list; the run would then miss the change before its next model call. Messages
//! arrive in order here, so a change the server announced before answering is always counted
//! before the answer is seen.

use std::borrow::Cow;
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use rmcp::model::{JsonRpcMessage, ServerNotification};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::RoleClient;

/// A client transport that counts the tool-list changes it receives.
pub(crate) struct ListChangeCounter<T> {
    inner: T,
    changes: Arc<AtomicU64>,
}

impl<T> ListChangeCounter<T> {
    /// Wraps `inner`, counting into `changes`.
    pub(crate) fn new(inner: T, changes: Arc<AtomicU64>) -> Self {
        ListChangeCounter { inner, changes }
    }
}

impl<T: Transport<RoleClient>> Transport<RoleClient> for ListChangeCounter<T> {
    type Error = T::Error;

    fn name() -> Cow<'static, str> {
        T::name()
    }

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        let message = self.inner.receive().await;
        if let Some(JsonRpcMessage::Notification(notification)) = &message {
            if matches!(notification.notification, ServerNotification::ToolListChangedNotification(_)) {
                self.changes.fetch_add(1, Ordering::SeqCst);
            }
        }
        message
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    /// A transport that hands out the messages it was given, in order.
    struct Inbox(VecDeque<RxJsonRpcMessage<RoleClient>>);

    impl Transport<RoleClient> for Inbox {
        type Error = std::io::Error;

        fn send(
            &mut self,
            _item: TxJsonRpcMessage<RoleClient>,
        ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
            std::future::ready(Ok(()))
        }

        async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
            self.0.pop_front()
        }

        async fn close(&mut self) -> Result<(), Self::Error> {
            Ok(())
        }
    }

    fn message(json: serde_json::Value) -> RxJsonRpcMessage<RoleClient> {
        serde_json::from_value(json).expect("a server message")
    }

    #[tokio::test]
    async fn a_list_change_is_counted_before_the_answer_after_it_is_received() {
        let changes = Arc::new(AtomicU64::new(0));
        let mut transport = ListChangeCounter::new(
            Inbox(VecDeque::from([
                message(serde_json::json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})),
                message(serde_json::json!({"jsonrpc": "2.0", "id": 3, "result": {"content": []}})),
                message(serde_json::json!({"jsonrpc": "2.0", "method": "notifications/resources/list_changed"})),
            ])),
            changes.clone(),
        );
        assert!(transport.receive().await.is_some());
        assert_eq!(changes.load(Ordering::SeqCst), 1, "counted as it is received, by no other task");
        assert!(transport.receive().await.is_some());
        assert!(transport.receive().await.is_some());
        assert_eq!(changes.load(Ordering::SeqCst), 1, "other notifications are not tool-list changes");
    }
}
