//! What the playground simulates and AWS has no resource for: said in every export, one line
//! each, so nothing is dropped silently.

use crate::sim::Sim;
use crate::time::SECOND;

/// Parts per million as a decimal: 50,000 → "0.05" (integers only).
fn ppm_text(ppm: u32) -> String {
    let whole = ppm / 1_000_000;
    let frac = format!("{:06}", ppm % 1_000_000);
    let frac = frac.trim_end_matches('0');
    if frac.is_empty() {
        whole.to_string()
    } else {
        format!("{whole}.{frac}")
    }
}

impl Sim {
    /// One line per simulator-only thing in this simulation.
    pub(crate) fn export_left_out(&self) -> Vec<String> {
        let view = self.world_view();
        let mut out = Vec::new();
        for w in &view.workers {
            out.push(format!(
                "worker {} on queue {}: a simulated consumer (processing time {}, idempotency {}); run your own consumer that polls the queue",
                w.name, w.queue, w.processing_time, w.idempotency
            ));
        }
        for f in &view.functions {
            out.push(format!(
                "function {}: its simulated behavior (processing time, failures, jobs) is the playground's; the function exported is a placeholder",
                f.name
            ));
        }
        for d in &view.dependencies {
            out.push(format!(
                "dependency {}: a simulated downstream service (latency, errors, capacity, schedule)",
                d.name
            ));
        }
        for p in &view.producers {
            out.push(format!("producer {}: a simulated source of events ({} design)", p.name, p.design));
        }
        // Subscriptions the template cannot make: it subscribes queues only.
        let subs =
            self.topics.values().flat_map(|t| t.subscriptions.iter()).filter_map(|arn| self.subscriptions.get(arn));
        for sub in subs.filter(|s| s.queue_name().is_none()) {
            out.push(format!(
                "subscription of topic {} to {} (protocol {}): only queue subscriptions are exported; subscribe your own endpoint",
                sub.topic, sub.endpoint, sub.protocol
            ));
        }
        for e in &view.http_endpoints {
            use crate::world::EndpointKind;
            out.push(match e.kind {
                EndpointKind::Webhook => format!(
                    "HTTP/S endpoint {} ({}): a simulated webhook; run your own, which must confirm the SNS subscription",
                    e.name, e.url
                ),
                _ => format!(
                    "recipient {} ({}): a simulated {}; subscribe a real one, whose owner confirms an e-mail subscription",
                    e.name,
                    e.url,
                    e.kind.noun()
                ),
            });
        }
        for o in &view.order_services {
            out.push(format!(
                "order service {} ({:?} design, publishing to {}): a simulated application and its database; your service writes its orders{}",
                o.name,
                o.design,
                o.topic,
                if matches!(o.design, crate::world::OrderDesign::Outbox) { " and outbox rows in one transaction" } else { "" }
            ));
        }
        for r in self.world.relays.values() {
            out.push(format!(
                "outbox relay {} of {}: a simulated poller of the outbox; run your own relay (or change data capture)",
                r.name, r.service
            ));
        }
        self.settings_left_out(&mut out);
        if view.metric_resolution_ms != 60 * SECOND && (!view.alarms.is_empty() || !view.workers.is_empty()) {
            out.push(format!(
                "metric resolution {} s (ConfigureMetrics): the playground's own series; AWS/SQS sends one datapoint a minute, on AWS as here",
                view.metric_resolution_ms / SECOND
            ));
        }
        let running = self.move_tasks.values().filter(|t| t.is_running()).count();
        if running > 0 {
            out.push(format!("{running} running message move task(s): start them again with StartMessageMoveTask"));
        }
        let stored: usize = self.queues.values().map(|q| q.messages.len()).sum();
        if stored > 0 {
            out.push(format!(
                "{stored} message(s) stored in the queues now: the resources are created empty (the scripts send the story's messages again)"
            ));
        }
        out
    }

    fn settings_left_out(&self, out: &mut Vec<String>) {
        let s = self.settings();
        if s.duplicate_ppm > 0 {
            out.push(format!(
                "simulation setting DuplicateDeliveryProbability {}: on AWS, at-least-once duplicates happen when they happen",
                ppm_text(s.duplicate_ppm)
            ));
        }
        if s.reorder_ppm > 0 {
            out.push(format!(
                "simulation setting ReorderProbability {}: on AWS, best-effort ordering is not set",
                ppm_text(s.reorder_ppm)
            ));
        }
        if s.sns_delivery_latency_ms > 0 {
            out.push(format!(
                "simulation setting SnsDeliveryLatency {} ms: on AWS, delivery takes what it takes",
                s.sns_delivery_latency_ms
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn parts_per_million_read_as_decimals() {
        assert_eq!(super::ppm_text(50_000), "0.05");
        assert_eq!(super::ppm_text(1_000_000), "1");
        assert_eq!(super::ppm_text(1), "0.000001");
    }

    /// Every export names what it cannot make: never a silent drop (issue 17).
    #[test]
    fn http_subscriptions_endpoints_order_services_and_relays_are_said_to_be_left_out() {
        let left = |text: &str| crate::Scenario::parse(text).expect("scenario").run().sim().export_left_out();
        let http = left(include_str!("../../tests/scenarios/sns-http-retries.json"));
        assert!(
            http.iter().any(|l| l
                .starts_with("subscription of topic order-events to https://partner.example.com/sns (protocol https)")),
            "{http:?}"
        );
        assert!(
            http.iter().any(|l| l.starts_with("HTTP/S endpoint partner (https://partner.example.com/sns)")),
            "{http:?}"
        );
        let outbox = left(include_str!("../../tests/scenarios/outbox-dual-write.json"));
        assert!(
            outbox
                .iter()
                .any(|l| l.starts_with("order service shop-dualwrite (DualWrite design") && l.ends_with("its orders")),
            "{outbox:?}"
        );
        assert!(outbox.iter().any(|l| l.starts_with("order service shop-outbox (Outbox design") && l.ends_with("in one transaction")), "{outbox:?}");
        assert!(outbox.iter().any(|l| l.starts_with("outbox relay shop-outbox-relay of shop-outbox")), "{outbox:?}");
    }
}
