! Steps a scenario's model from Fortran through surfdb's C API (model.h): one data, the model's
! own steps until the end time, then the time reached and the first body's height, to 17 digits
! (the embedding test compares them with `surfdb simulate`'s time series, bit for bit).
! Build: gfortran surfdb.f90 step_scenario.f90 -L PREFIX/lib -lsurfdb_c_simulation -lsurfdb_c
! Usage: step_scenario SCENARIO.toml END_TIME
program step_scenario
  use surfdb
  implicit none
  character(len=4096) :: path, arg
  type(c_ptr) :: model, data
  real(c_double) :: end_time
  real(c_double), allocatable :: state(:)
  integer(c_int) :: n
  integer :: steps
  call get_command_argument(1, path)
  call get_command_argument(2, arg)
  read (arg, *) end_time
  call surfdb_check(surfdb_model_open(trim(path) // c_null_char, c_null_ptr, 0_c_int, model))
  call surfdb_check(surfdb_data_make(model, data))
  steps = 0
  do while (surfdb_data_time(data) < end_time)
    call surfdb_check(surfdb_step(model, data))
    steps = steps + 1
  end do
  n = surfdb_data_state_size(data)
  allocate (state(n))
  call surfdb_check(surfdb_data_get_state(data, state, n))
  write (*, '(a, es25.17)') 'end_time ', surfdb_data_time(data)
  write (*, '(a, i0)') 'steps ', steps
  write (*, '(a, es25.17)') 'first_body_z ', state(3)
  deallocate (state)
  call surfdb_data_close(data)
  call surfdb_model_close(model)
end program
