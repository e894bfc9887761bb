-- When a certificate-based credential (an APNs PKCS#12 certificate) stops working: its X.509 notAfter, set when it
-- is uploaded (existing rows by CertificateExpiry at startup); null for credentials that do not expire (.p8 keys,
-- service accounts, app secrets). Read for the earliest-expiry metric and its alert (docs/operations.md).
alter table push_certificates add column expires_at timestamptz;
create index push_certificates_expiring on push_certificates (expires_at) where expires_at is not null;
