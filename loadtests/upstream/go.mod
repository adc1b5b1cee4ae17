module bench/upstream

go 1.26.0
