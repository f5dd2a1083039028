//! A server's connections, served by hyper under bounds that no client can stretch: a client has
//! `header_timeout` to send each request's headers (an idle kept-alive connection too), and a
//! connection whose client reads nothing of its reply for `write_timeout` is closed. At most
//! `max_connections` are open: at the cap one is closed to make room: the oldest that never sent a
//! request, else the oldest idle one (a client's kept-alive connection, closed last since its
//! client is likely to use it again), else the oldest whose request's body is still arriving; so idle, half-sent and trickling connections
//! can neither exhaust the process's file descriptors nor keep a client with a real request out.
//! Only requests being answered (an event stream, a call waiting for the plugin) are never closed
//! for room, and their number has bounds of its own.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, HttpBody};
use axum::Router;
use http_body_util::BodyExt;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{oneshot, Notify};
use tokio::task::JoinSet;
use tokio::time::Sleep;
use tower::ServiceExt;

/// The bounds of a server's connections.
#[derive(Debug, Clone, Copy)]
pub struct ConnectionLimits {
    /// Open connections.
    pub max_connections: usize,
    /// How long a client may take to send a request's headers.
    pub header_timeout: Duration,
    /// How long a client may read nothing of what the server sends it.
    pub write_timeout: Duration,
}

/// A connection the server keeps track of: whether a request is under way on it and whether its
/// body is still arriving, and how to close it.
struct Tracked {
    busy: Arc<AtomicUsize>,
    reading: Arc<AtomicUsize>,
    used: Arc<AtomicBool>,
    close: Notify,
}

impl Tracked {
    /// Whether its client connected and never sent a request.
    fn unused(&self) -> bool {
        !self.used.load(Ordering::Acquire) && self.idle()
    }

    fn idle(&self) -> bool {
        self.busy.load(Ordering::Acquire) == 0
    }

    /// Whether its only requests are ones whose body is still arriving.
    fn only_reading(&self) -> bool {
        self.busy.load(Ordering::Acquire) == self.reading.load(Ordering::Acquire)
    }
}

type Registry = Arc<Mutex<BTreeMap<u64, Arc<Tracked>>>>;

fn locked(registry: &Registry) -> std::sync::MutexGuard<'_, BTreeMap<u64, Arc<Tracked>>> {
    registry.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Serves `app` on `listener` until `stop` comes; then every connection is closed (those still
/// busy after a short grace are cut) before this returns.
pub async fn serve(listener: TcpListener, app: Router, limits: ConnectionLimits, mut stop: oneshot::Receiver<()>) {
    let registry: Registry = Arc::default();
    let mut tasks = JoinSet::new();
    let mut next_id = 0u64;
    loop {
        let tcp = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((tcp, _)) => tcp,
                Err(error) => {
                    // Out of file descriptors, or a connection reset before it was taken: wait a
                    // moment (the cap frees descriptors) rather than spin.
                    tracing::warn!(%error, "the server could not accept a connection");
                    tokio::select! {
                        _ = tokio::time::sleep(Duration::from_millis(50)) => continue,
                        _ = &mut stop => break,
                    }
                }
            },
            _ = &mut stop => break,
        };
        while tasks.try_join_next().is_some() {}
        next_id += 1;
        let Some(tracked) = admit(&registry, next_id, limits.max_connections) else {
            tracing::warn!("the server refused a connection: every connection has a request under way");
            continue;
        };
        let _ = tcp.set_nodelay(true);
        let registry = Arc::clone(&registry);
        let app = app.clone();
        let id = next_id;
        tasks.spawn(async move {
            serve_connection(tcp, app, &tracked, limits).await;
            locked(&registry).remove(&id);
        });
    }
    for tracked in locked(&registry).values() {
        tracked.close.notify_one();
    }
    let _ = tokio::time::timeout(Duration::from_secs(2), async { while tasks.join_next().await.is_some() {} }).await;
    tasks.abort_all();
}

/// Makes room for the connection `id` and tracks it; at the cap, the oldest connection that never
/// sent a request is closed, else the oldest idle one, else the oldest whose request's body is
/// still arriving. `None` when every connection has a request being answered.
fn admit(registry: &Registry, id: u64, max: usize) -> Option<Arc<Tracked>> {
    let mut connections = locked(registry);
    if connections.len() >= max.max(1) {
        let oldest = |room: fn(&Tracked) -> bool| connections.iter().find(|(_, c)| room(c)).map(|(id, _)| *id);
        let evicted =
            oldest(Tracked::unused).or_else(|| oldest(Tracked::idle)).or_else(|| oldest(Tracked::only_reading))?;
        if let Some(evicted) = connections.remove(&evicted) {
            evicted.close.notify_one();
        }
    }
    let tracked =
        Arc::new(Tracked { busy: Arc::default(), reading: Arc::default(), used: Arc::default(), close: Notify::new() });
    connections.insert(id, Arc::clone(&tracked));
    Some(tracked)
}

/// One count of a connection's, held while what it counts lasts (a request under way until its
/// reply is sent or dropped; a body until it arrived whole or was dropped).
struct Counted(Arc<AtomicUsize>);

impl Counted {
    fn enter(count: &Arc<AtomicUsize>) -> Counted {
        count.fetch_add(1, Ordering::AcqRel);
        Counted(Arc::clone(count))
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A request's body that counts as still arriving until its end came or it was dropped.
struct ArrivingBody {
    body: Incoming,
    arriving: Option<Counted>,
}

impl HttpBody for ArrivingBody {
    type Data = bytes::Bytes;
    type Error = hyper::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<hyper::body::Frame<bytes::Bytes>, hyper::Error>>> {
        let polled = Pin::new(&mut self.body).poll_frame(cx);
        if matches!(polled, Poll::Ready(None | Some(Err(_)))) || self.body.is_end_stream() {
            self.arriving = None;
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.body.size_hint()
    }
}

/// Serves one connection until its client closes it, a bound closes it, or the server does.
async fn serve_connection(tcp: TcpStream, app: Router, tracked: &Tracked, limits: ConnectionLimits) {
    let (busy, reading, used) = (Arc::clone(&tracked.busy), Arc::clone(&tracked.reading), Arc::clone(&tracked.used));
    let service = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
        let under_way = Counted::enter(&busy);
        used.store(true, Ordering::Release);
        let arriving = (!request.body().is_end_stream()).then(|| Counted::enter(&reading));
        let request = request.map(|body| Body::new(ArrivingBody { body, arriving }));
        let app = app.clone();
        async move {
            let Ok(response) = app.oneshot(request).await;
            // The request stays under way until its reply's body is sent or dropped.
            Ok::<_, Infallible>(response.map(move |body| {
                Body::new(body.map_frame(move |frame| {
                    let _ = &under_way;
                    frame
                }))
            }))
        }
    });
    let io = TokioIo::new(WriteDeadline { io: tcp, limit: limits.write_timeout, stalled: None });
    let mut builder = http1::Builder::new();
    builder.timer(TokioTimer::new()).header_read_timeout(limits.header_timeout).keep_alive(true);
    let connection = builder.serve_connection(io, service);
    tokio::select! {
        served = connection => if let Err(error) = served {
            tracing::debug!(%error, "a connection ended");
        },
        () = tracked.close.notified() => tracing::debug!("a connection was closed to make room or to stop"),
    }
}

/// A connection that fails once its client has read nothing for `limit` while the server had bytes
/// to send: a client that never reads its stream cannot keep the server's memory or its connection.
struct WriteDeadline {
    io: TcpStream,
    limit: Duration,
    stalled: Option<Pin<Box<Sleep>>>,
}

impl WriteDeadline {
    /// A write that could not go on: pending until the deadline, then an error.
    fn stall<T>(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<T>> {
        let limit = self.limit;
        let deadline = self.stalled.get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        match deadline.as_mut().poll(cx) {
            Poll::Ready(()) => {
                Poll::Ready(Err(io::Error::new(io::ErrorKind::TimedOut, "the client read nothing for too long")))
            }
            Poll::Pending => Poll::Pending,
        }
    }

    fn progressed<T>(&mut self, ready: Poll<io::Result<T>>, cx: &mut Context<'_>) -> Poll<io::Result<T>> {
        match ready {
            Poll::Pending => self.stall(cx),
            ready => {
                self.stalled = None;
                ready
            }
        }
    }
}

impl AsyncRead for WriteDeadline {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_read(cx, buf)
    }
}

impl AsyncWrite for WriteDeadline {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let ready = Pin::new(&mut this.io).poll_write(cx, buf);
        this.progressed(ready, cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let ready = Pin::new(&mut this.io).poll_write_vectored(cx, bufs);
        this.progressed(ready, cx)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let ready = Pin::new(&mut this.io).poll_flush(cx);
        this.progressed(ready, cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }
}
