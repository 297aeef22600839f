//! The command-queue engine (`runtime::commands`): statuses, wait lists, failure propagation,
//! callbacks and the out-of-order queue's barriers. Expected orders are worked out by hand from
//! API 5.11/5.12.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use runtime::commands::{
    CommandKind, CommandQueue, EventState, COMPLETE, ERROR_FOR_EVENTS_IN_WAIT_LIST, RUNNING,
    SUBMITTED,
};

fn log() -> Arc<Mutex<Vec<&'static str>>> {
    Arc::new(Mutex::new(Vec::new()))
}

fn push(log: &Arc<Mutex<Vec<&'static str>>>, what: &'static str) -> runtime::commands::Work {
    let log = log.clone();
    Box::new(move || {
        log.lock().unwrap().push(what);
        Ok(())
    })
}

#[test]
fn in_order_commands_wait_for_a_user_event() {
    let queue = CommandQueue::new().unwrap();
    let user = EventState::new(SUBMITTED);
    let order = log();
    let first = queue.submit(vec![user.clone()], push(&order, "first"));
    let second = queue.submit(vec![], push(&order, "second"));
    std::thread::sleep(Duration::from_millis(20));
    // In order: the second command waits behind the first, which waits for the user event.
    assert!(order.lock().unwrap().is_empty());
    assert_eq!(second.status(), SUBMITTED);
    assert!(user.set_status(COMPLETE));
    assert_eq!(second.wait(), COMPLETE);
    assert_eq!(first.status(), COMPLETE);
    assert_eq!(*order.lock().unwrap(), ["first", "second"]);
    // A user event's status changes once.
    assert!(!user.set_status(-1));
}

#[test]
fn a_failed_event_in_the_wait_list_fails_the_command_without_running_it() {
    let queue = CommandQueue::new().unwrap();
    let user = EventState::new(SUBMITTED);
    let order = log();
    let dependent = queue.submit(vec![user.clone()], push(&order, "dependent"));
    let independent = queue.submit(vec![], push(&order, "independent"));
    user.set_status(-42);
    assert_eq!(dependent.wait(), ERROR_FOR_EVENTS_IN_WAIT_LIST);
    // In-order position alone is no dependency on success.
    assert_eq!(independent.wait(), COMPLETE);
    assert_eq!(*order.lock().unwrap(), ["independent"]);
}

#[test]
fn a_failing_command_reports_its_error_code() {
    let queue = CommandQueue::new().unwrap();
    let event = queue.submit(
        vec![],
        Box::new(|| Err(runtime::Error::InvalidValue("test".into()))),
    );
    assert_eq!(event.wait(), -30); // CL_INVALID_VALUE
}

#[test]
fn callbacks_see_each_status_once_and_profiling_times_are_ordered() {
    let queue = CommandQueue::new().unwrap();
    let user = EventState::new(SUBMITTED);
    let event = queue.submit(vec![user.clone()], Box::new(|| Ok(())));
    let seen = Arc::new(Mutex::new(Vec::new()));
    for target in [COMPLETE, RUNNING, SUBMITTED] {
        let seen = seen.clone();
        event.on_status(
            target,
            Box::new(move |status| seen.lock().unwrap().push((target, status))),
        );
    }
    // Already submitted: that callback ran at once.
    assert_eq!(*seen.lock().unwrap(), [(SUBMITTED, SUBMITTED)]);
    user.set_status(COMPLETE);
    event.wait();
    // Callbacks run on the queue's thread and may still be running when `wait` returns (API
    // 5.11: a callback is called "asynchronously"), so wait for them, boundedly.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while seen.lock().unwrap().len() < 3 && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(1));
    }
    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 3, "{seen:?}");
    assert!(
        seen.contains(&(RUNNING, RUNNING)) && seen.contains(&(COMPLETE, COMPLETE)),
        "{seen:?}"
    );
    let p = event.profiling();
    assert!(
        p.queued <= p.submit && p.submit <= p.start && p.start <= p.end,
        "{p:?}"
    );
}

#[test]
fn out_of_order_commands_pass_a_blocked_one_but_not_a_barrier() {
    let queue = CommandQueue::with_order(true).unwrap();
    let user = EventState::new(SUBMITTED);
    let order = log();
    let blocked = queue.submit(vec![user.clone()], push(&order, "blocked"));
    let free = queue.submit(vec![], push(&order, "free"));
    assert_eq!(free.wait(), COMPLETE);
    assert_eq!(blocked.status(), SUBMITTED);
    let barrier = queue.submit_kind(vec![], CommandKind::Barrier, push(&order, "barrier"));
    let after = queue.submit(vec![], push(&order, "after"));
    std::thread::sleep(Duration::from_millis(20));
    // The barrier waits for `blocked`, and `after` waits for the barrier.
    assert_eq!(*order.lock().unwrap(), ["free"]);
    user.set_status(COMPLETE);
    assert_eq!(after.wait(), COMPLETE);
    assert_eq!(barrier.status(), COMPLETE);
    assert_eq!(
        *order.lock().unwrap(),
        ["free", "blocked", "barrier", "after"]
    );
    queue.finish();
}

#[test]
fn releasing_a_queue_does_not_wait_for_a_gated_command() {
    let user = EventState::new(SUBMITTED);
    let event = {
        let queue = CommandQueue::new().unwrap();
        queue.submit(vec![user.clone()], Box::new(|| Ok(())))
    };
    // The queue is gone; its command still runs once the event is set.
    user.set_status(COMPLETE);
    assert_eq!(event.wait(), COMPLETE);
}
