package io.imcore.push.certificate;

import io.imcore.pushcontract.Channel;

/** What a certificate name stands for: a device token bound under this name (notifier_name) is for this channel. */
public record CertificateRef(Channel channel, int environment, String name) {}
