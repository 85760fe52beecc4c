//! Client and server configurations for loopback transfers: a self-signed certificate for
//! "localhost" made at run time, multipath enabled, fixed 1200-byte datagrams (no MTU
//! discovery, no segmentation offload) so that a segment is the same size on every path.

use crate::CoupledFactory;
use noq::rustls::pki_types::{CertificateDer, PrivatePkcs8KeyDer};
use noq::{ClientConfig, ServerConfig, TransportConfig};
use std::sync::Arc;

/// Bytes per QUIC datagram on every path.
pub const DATAGRAM: u16 = 1200;

/// The transport settings both ends share.
fn transport() -> TransportConfig {
    let mut t = TransportConfig::default();
    t.max_concurrent_multipath_paths(8);
    t.initial_mtu(DATAGRAM);
    t.min_mtu(DATAGRAM);
    t.mtu_discovery_config(None);
    t.enable_segmentation_offload(false);
    // No per-path idle timeout: noq sends a path's ACKs on whichever path it likes, so a
    // sending path may receive nothing for seconds and would be abandoned while it works. A
    // path that dies keeps its minimum window and its lost data is sent on the others.
    t
}

pub struct Certificates {
    cert: CertificateDer<'static>,
    key: Vec<u8>,
}

impl Certificates {
    pub fn generate() -> Result<Certificates, String> {
        let c = rcgen::generate_simple_self_signed(vec!["localhost".into()]).map_err(|e| format!("certificate: {e}"))?;
        Ok(Certificates { cert: c.cert.der().clone(), key: c.signing_key.serialize_der() })
    }

    pub fn server(&self) -> Result<ServerConfig, String> {
        let key = PrivatePkcs8KeyDer::from(self.key.clone());
        let mut s = ServerConfig::with_single_cert(vec![self.cert.clone()], key.into()).map_err(|e| format!("server config: {e}"))?;
        s.transport_config(Arc::new(transport()));
        Ok(s)
    }

    /// A client whose paths run `factory`'s controllers (one factory per connection).
    pub fn client(&self, factory: Arc<CoupledFactory>) -> Result<ClientConfig, String> {
        client_config(self.cert.as_ref(), factory)
    }

    /// The certificate (DER), which a client in another process needs to trust the server.
    pub fn cert_der(&self) -> &[u8] {
        self.cert.as_ref()
    }
}

/// A client that trusts the certificate `cert_der` (made by [`Certificates::generate`]) and
/// whose paths run `factory`'s controllers (one factory per connection).
pub fn client_config(cert_der: &[u8], factory: Arc<CoupledFactory>) -> Result<ClientConfig, String> {
    let mut roots = noq::rustls::RootCertStore::empty();
    roots.add(CertificateDer::from(cert_der.to_vec())).map_err(|e| format!("the server's certificate: {e}"))?;
    let mut c = ClientConfig::with_root_certificates(Arc::new(roots)).map_err(|e| format!("client config: {e}"))?;
    let mut t = transport();
    t.congestion_controller_factory(factory);
    c.transport_config(Arc::new(t));
    Ok(c)
}
