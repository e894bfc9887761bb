-- Seeds :n devices for app :'app' straight into the push database (deploy/bench/push.sh and deploy/chaos/run.sh):
--   psql -v app=APP_ID -v n=DEVICES -f deploy/bench/seed-push-devices.sql
-- Mix: 30 % APNs tokens, 20 % FCM, 40 % Huawei..Meizu (8 % each), 10 % no provider token; 10 % of the
-- devices online (push_presence); two devices per user id; notifier names <channel>-prod (the app needs those
-- certificates, lib.sh upload_simulator_certificates "%s-prod").
begin;
-- device i (1..n): user 1000000000 + (i-1)/2, device_sn 1 or 2; its opaque push_token as auth-service makes them
insert into push_devices (app_id, user_id, device_sn, push_token)
select :'app', 1000000000 + (i - 1) / 2, 1 + (i - 1) % 2, left(md5(:'app' || i), 32)
from generate_series(1, :n) i;
-- provider tokens by i % 10: 0-2 APNs, 3-4 FCM, 5-8 Huawei..Meizu (by i / 100 % 5), 9 none; token lengths
-- roughly the providers' (APNs 64 hex, FCM ~150, Huawei 128, the other phone makers 44)
insert into push_device_tokens (device_id, channel, app_id, token, notifier_name, environment)
select d.device_id, c.channel, d.app_id,
  case c.channel
    when 'ios' then md5('a' || d.i) || md5('b' || d.i)
    when 'cloud' then left(md5('c' || d.i), 22) || ':APA91b' || md5('d' || d.i) || md5('e' || d.i)
      || md5('f' || d.i) || md5('g' || d.i)
    when 'vendor_a' then md5('h' || d.i) || md5('i' || d.i) || md5('j' || d.i) || md5('k' || d.i)
    else md5('l' || d.i) || left(md5('m' || d.i), 12)
  end,
  c.channel || '-prod', 1
from (select device_id, app_id, (user_id - 1000000000) * 2 + device_sn as i from push_devices
      where app_id = :'app') d
cross join lateral (select case when d.i % 10 < 3 then 'ios' when d.i % 10 < 5 then 'cloud'
  when d.i % 10 < 9 then 'vendor_' || chr(97 + (d.i / 100 % 5)::int) end as channel) c
where c.channel is not null;
-- 10 % online: i / 10 % 10 = 0 takes one device in ten of every channel mix
insert into push_presence (app_id, user_id, device_sn, seq, online)
select :'app', 1000000000 + (i - 1) / 2, 1 + (i - 1) % 2, 1, true
from generate_series(1, :n) i where i / 10 % 10 = 0;
commit;
analyze push_devices;
analyze push_device_tokens;
analyze push_presence;
